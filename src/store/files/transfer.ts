// Glue between the session store and the session file: gather a stored session for export (with secret review),
// and turn an imported file into a new stored session.
import type { Message } from '../../ai/types';
import { gitBlobId, type ObjectId } from '../../runtime/object-id';
import type { Runtime } from '../../runtime/types';
import type { NewObjects } from '../objects/object-store';
import { repairTranscript } from '../sessions/repair-transcript';
import { exportSessionFile, sessionFileName, type SessionExportInput } from './session-file/session-file';
import { readSessionFileForStorage } from './session-file/reader';
import type { SessionSnapshots } from './session-file/checkpoints';
import { redactSecrets, scanForSecrets } from './secret-scan';
import { snapshotOfZip } from '../objects/snapshot-migration';
import { makeTree, type Tree, type TreeEntry } from '../objects/trees/codec';
import { collectTrees, filesOfTree, memoryReader, snapshotOfHashedFiles } from '../objects/trees/files';
import { decodeText } from './workspace-diff';
import { unzipToMap, zipFromFiles } from '../zip/repo-zip';
import type { FileChange, FileMap, SecretFinding, SessionRecord, SessionStore, StoredSnapshot } from '../types';
import { importedTitle, IMPORTED_TITLE_SUFFIX } from './imported-title';

export { importedTitle, IMPORTED_TITLE_SUFFIX };

/** Folders left out of workspace snapshots: reinstallable, and often bigger than everything else together. */
export const SNAPSHOT_EXCLUDE = ['node_modules'];

/**
 * Folders of history rather than of the project: kept in snapshots and session files (so a shared session keeps its
 * git history), but left out of the Changes tab, workspace downloads and patches unless the person asks for them.
 */
export const HISTORY_FOLDERS = ['.git'];

/**
 * Everything a session file would hold for stored session `sessionId` (transcript repaired; latest and baseline as
 * files; checkpoints as trees). Every file is read from storage once, however many snapshots hold it.
 */
export async function loadSessionExport(store: SessionStore, sessionId: string): Promise<SessionExportInput> {
  const session = await store.getSession(sessionId);
  if (!session) throw new Error(`Session ${sessionId} does not exist (it may have been deleted in another tab).`);
  const messages = repairTranscript(await store.loadEntries(sessionId));
  // A repair that dropped a trailing empty reply leaves a compaction made after it pointing past the end.
  const compactions = (await store.loadCompactions(sessionId)).map((c) => (c.atSeq > messages.length ? { ...c, atSeq: messages.length, firstKeptSeq: Math.min(c.firstKeptSeq, messages.length) } : c));
  const tasks = await store.loadTasks(sessionId);
  await store.upgradeSnapshots(sessionId).catch(() => undefined); // a zip that stays is exported as a zip
  const latest = await store.loadStoredSnapshot(sessionId, 'latest');
  const baseline = await store.loadStoredSnapshot(sessionId, 'baseline');
  const roots = new Map<number, ObjectId>();
  const zips = new Map<number, Uint8Array>();
  for (const seq of session.checkpoints) {
    if (seq >= messages.length) continue;
    const stored = await store.loadStoredSnapshot(sessionId, { checkpoint: seq });
    if (stored && 'tree' in stored) roots.set(seq, stored.tree);
    else if (stored) zips.set(seq, stored.zip);
  }
  const treeRoot = (stored: StoredSnapshot | undefined) => (stored && 'tree' in stored ? [stored.tree] : []);
  const all = await collectTrees(store.objects, [...treeRoot(latest), ...treeRoot(baseline), ...roots.values()]);
  const blobs = await store.objects.blobs(all.blobIds);
  const reader = memoryReader(all.trees, blobs);
  const filesOf = async (stored: StoredSnapshot | undefined): Promise<FileMap | null> => {
    if (!stored) return null;
    return 'tree' in stored ? (await filesOfTree(reader, stored.tree)).files : unzipToMap(stored.zip);
  };
  const ofCheckpoints = await collectTrees(reader, roots.values());
  const snapshots: SessionSnapshots = {
    checkpoints: roots,
    trees: ofCheckpoints.trees,
    blobs: new Map([...ofCheckpoints.blobIds].map((id) => [id, blobs.get(id)!])),
  };
  return {
    session,
    messages,
    compactions,
    tasks,
    workspace: (await filesOf(latest)) ?? new Map(),
    baseline: await filesOf(baseline),
    checkpoints: zips,
    snapshots,
  };
}

/**
 * Secret-looking things in an export: transcript (compaction summaries included, as they quote it), subagent tasks'
 * transcripts and kept worker files, workspace and baseline. Pass the person's API keys as `knownSecrets`.
 */
export function scanSessionExport(input: SessionExportInput, knownSecrets: string[] = []): SecretFinding[] {
  const findings = scanForSecrets({ messages: input.messages, files: input.workspace, baseline: input.baseline ?? undefined, knownSecrets });
  const summaries = (input.compactions ?? []).map((c): Message => ({ role: 'user', content: c.summary, timestamp: c.timestamp }));
  for (const finding of scanForSecrets({ messages: summaries, knownSecrets })) {
    findings.push({ ...finding, id: `s${findings.length}`, seq: undefined, field: `compaction ${finding.seq}` });
  }
  for (const task of input.tasks ?? []) {
    const kept = (task.pending ?? []).flatMap((file): Message[] =>
      file.worker !== null && file.encoding !== 'base64' ? [{ role: 'user', content: file.worker, timestamp: 0 }] : [],
    );
    for (const finding of scanForSecrets({ messages: [...task.messages, ...kept], knownSecrets })) {
      const where = finding.seq! < task.messages.length ? `message ${finding.seq}/${finding.field}` : `kept file ${task.pending?.[finding.seq! - task.messages.length]?.path}`;
      findings.push({ ...finding, id: `s${findings.length}`, seq: undefined, field: `task "${task.description}" ${where}` });
    }
  }
  return findings;
}

/** A copy of `input` with `findings` redacted; checkpoint zips are redacted by value, since their files vary. */
export async function redactSessionExport(input: SessionExportInput, findings: SecretFinding[]): Promise<SessionExportInput> {
  if (findings.length === 0) return input;
  const out = redactSecrets({ messages: input.messages, files: input.workspace, baseline: input.baseline ?? undefined }, findings);
  const values = [...new Set(findings.map((f) => f.value))].sort((a, b) => b.length - a.length);
  const redactValues = (text: string) => values.reduce((t, v) => t.split(v).join('[REDACTED]'), text);
  // Summaries quote the transcript, so whatever is redacted anywhere is redacted in them too.
  const compactions = input.compactions?.map((c) => ({ ...c, summary: redactValues(c.summary) }));
  // A task's transcript quotes files and the parent's prompt: it is redacted by value too, every text in it.
  const tasks = input.tasks?.map((task) => redactStrings(task, redactValues));
  const checkpoints = new Map<number, Uint8Array>();
  for (const [seq, zip] of input.checkpoints ?? []) {
    const files = await unzipToMap(zip);
    for (const [path, bytes] of files) {
      const text = decodeText(bytes);
      if (text === null || !values.some((v) => text.includes(v))) continue;
      files.set(path, new TextEncoder().encode(redactValues(text)));
    }
    checkpoints.set(seq, zipFromFiles(files));
  }
  const snapshots = input.snapshots ? await redactSnapshots(input.snapshots, values) : undefined;
  return { ...input, messages: out.messages ?? [], compactions, tasks, workspace: out.files ?? new Map(), baseline: out.baseline ?? null, checkpoints, snapshots };
}

/** A copy of `value` with `redact` applied to every string in it (keys stay). */
function redactStrings<T>(value: T, redact: (text: string) => string): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((item) => redactStrings(item, redact)) as T;
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactStrings(item, redact)])) as T;
}

/** `snapshots` with every text file holding one of `values` redacted, and the folders above those files new. */
async function redactSnapshots(snapshots: SessionSnapshots, values: string[]): Promise<SessionSnapshots> {
  const renamed = new Map<ObjectId, ObjectId>();
  const blobs = new Map<ObjectId, Uint8Array>();
  for (const [id, bytes] of snapshots.blobs) {
    const text = decodeText(bytes);
    if (text === null || !values.some((v) => text.includes(v))) {
      blobs.set(id, bytes);
      continue;
    }
    const redacted = new TextEncoder().encode(values.reduce((t, v) => t.split(v).join('[REDACTED]'), text));
    const newId = await gitBlobId(redacted);
    renamed.set(id, newId);
    blobs.set(newId, redacted);
  }
  const trees = new Map<ObjectId, Tree>();
  const rewritten = new Map<ObjectId, Promise<ObjectId>>();
  const rewrite = (id: ObjectId): Promise<ObjectId> => {
    let done = rewritten.get(id);
    if (!done) {
      done = (async () => {
        const tree = snapshots.trees.get(id)!;
        const entries: TreeEntry[] = await Promise.all(
          tree.entries.map(async (e): Promise<TreeEntry> => (e.kind === 'dir' ? { ...e, id: await rewrite(e.id) } : { ...e, id: renamed.get(e.id) ?? e.id, size: blobs.get(renamed.get(e.id) ?? e.id)!.length })),
        );
        const next = entries.every((e, i) => e.id === tree.entries[i].id) ? tree : await makeTree(entries);
        trees.set(next.id, next);
        return next.id;
      })();
      rewritten.set(id, done);
    }
    return done;
  };
  const checkpoints = new Map<number, ObjectId>();
  for (const [seq, root] of snapshots.checkpoints) checkpoints.set(seq, await rewrite(root));
  const kept = new Set<ObjectId>();
  for (const tree of trees.values()) for (const e of tree.entries) if (e.kind === 'file') kept.add(e.id);
  return { checkpoints, trees, blobs: new Map([...blobs].filter(([id]) => kept.has(id))) };
}

/** The download for a (reviewed) export: file name and bytes. */
export function buildSessionDownload(input: SessionExportInput): { fileName: string; data: Uint8Array } {
  return { fileName: sessionFileName(input.session.title), data: exportSessionFile(input) };
}

/**
 * Validates a session file and stores it as a NEW session titled "<original> (imported)", remembering the original's
 * title and dates, its workspace, baseline and checkpoints as trees (each file stored once, shared with whatever the
 * store holds already); throws SessionFileError and stores nothing if invalid.
 */
export async function importSessionIntoStore(store: SessionStore, data: Uint8Array | Blob): Promise<SessionRecord> {
  const file = await readSessionFileForStorage(data);
  const objects: NewObjects = { blobs: new Map(), trees: new Map() };
  const add = (more: { blobs: Map<ObjectId, Uint8Array>; trees: Map<ObjectId, Tree> }) => {
    for (const [id, bytes] of more.blobs) objects.blobs.set(id, bytes);
    for (const [id, tree] of more.trees) objects.trees.set(id, tree);
  };
  // The reader hashed every file already (in its worker): the trees are built from those ids.
  const latest = await snapshotOfHashedFiles(file.workspace, file.workspaceIds);
  add(latest.objects);
  const baseline = file.baseline ? await snapshotOfHashedFiles(file.baseline, file.baselineIds) : undefined;
  if (baseline) add(baseline.objects);
  const checkpoints = new Map<number, ObjectId>();
  if (file.snapshots) {
    add(file.snapshots);
    for (const [seq, root] of file.snapshots.checkpoints) checkpoints.set(seq, root);
  }
  for (const [seq, zip] of file.checkpoints) {
    const converted = await snapshotOfZip(zip);
    add(converted.objects);
    checkpoints.set(seq, converted.root);
  }
  const { title, createdAt, exportedAt } = file.header;
  return store.importSession({
    title: importedTitle(title),
    importedFrom: { title, createdAt, exportedAt },
    model: file.header.model,
    provider: file.header.provider,
    createdAt,
    messages: file.messages,
    compactions: file.compactions,
    tasks: file.tasks,
    storedEntries: file.storedEntries,
    trees: { latest: latest.root, baseline: baseline?.root, checkpoints, objects },
  });
}

/** Puts one changed file back as it was in the baseline (deleting it if it was added). */
export async function revertChange(runtime: Pick<Runtime, 'workdir' | 'writeFile' | 'rm'>, change: FileChange, baseline: FileMap): Promise<void> {
  const target = `${runtime.workdir.replace(/\/$/, '')}/${change.path}`;
  if (change.status === 'added') return runtime.rm(target);
  const original = baseline.get(change.path);
  if (!original) throw new Error(`${change.path} is not in the baseline, so there is nothing to revert it to.`);
  await runtime.writeFile(target, original);
}
