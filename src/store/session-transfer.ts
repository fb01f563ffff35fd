// Glue between the session store and the session file: gather a stored session for export (with secret review),
// and turn an imported file into a new stored session.
import type { Message } from '../ai/types';
import type { Runtime } from '../runtime/types';
import { repairTranscript } from './repair-transcript';
import { exportSessionFile, sessionFileName, type SessionExportInput } from './session-file';
import { readSessionFileForStorage } from './session-file-reader';
import { redactSecrets, scanForSecrets } from './secret-scan';
import { decodeText } from './workspace-diff';
import { unzipToMap, zipFromFiles } from './zip-import';
import type { FileChange, FileMap, SecretFinding, SessionRecord, SessionStore } from './types';

/** Folders left out of workspace snapshots: reinstallable, and often bigger than everything else together. */
export const SNAPSHOT_EXCLUDE = ['node_modules'];

/**
 * Folders of history rather than of the project: kept in snapshots and session files (so a shared session keeps its
 * git history), but left out of the Changes tab, workspace downloads and patches unless the person asks for them.
 */
export const HISTORY_FOLDERS = ['.git'];

/** Everything a session file would hold for stored session `sessionId` (transcript repaired, snapshots unpacked). */
export async function loadSessionExport(store: SessionStore, sessionId: string): Promise<SessionExportInput> {
  const session = await store.getSession(sessionId);
  if (!session) throw new Error(`Session ${sessionId} does not exist (it may have been deleted in another tab).`);
  const messages = repairTranscript(await store.loadEntries(sessionId));
  // A repair that dropped a trailing empty reply leaves a compaction made after it pointing past the end.
  const compactions = (await store.loadCompactions(sessionId)).map((c) => (c.atSeq > messages.length ? { ...c, atSeq: messages.length, firstKeptSeq: Math.min(c.firstKeptSeq, messages.length) } : c));
  const latest = await store.loadSnapshot(sessionId, 'latest');
  const baseline = await store.loadSnapshot(sessionId, 'baseline');
  const checkpoints = new Map<number, Uint8Array>();
  for (const seq of session.checkpoints) {
    const zip = await store.loadSnapshot(sessionId, { checkpoint: seq });
    if (zip && seq < messages.length) checkpoints.set(seq, zip);
  }
  return {
    session,
    messages,
    compactions,
    workspace: latest ? await unzipToMap(latest) : new Map(),
    baseline: baseline ? await unzipToMap(baseline) : null,
    checkpoints,
  };
}

/**
 * Secret-looking things in an export: transcript (compaction summaries included, as they quote it), workspace and
 * baseline. Pass the person's API keys as `knownSecrets`.
 */
export function scanSessionExport(input: SessionExportInput, knownSecrets: string[] = []): SecretFinding[] {
  const findings = scanForSecrets({ messages: input.messages, files: input.workspace, baseline: input.baseline ?? undefined, knownSecrets });
  const summaries = (input.compactions ?? []).map((c): Message => ({ role: 'user', content: c.summary, timestamp: c.timestamp }));
  for (const finding of scanForSecrets({ messages: summaries, knownSecrets })) {
    findings.push({ ...finding, id: `s${findings.length}`, seq: undefined, field: `compaction ${finding.seq}` });
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
  return { ...input, messages: out.messages ?? [], compactions, workspace: out.files ?? new Map(), baseline: out.baseline ?? null, checkpoints };
}

/** The download for a (reviewed) export: file name and bytes. */
export function buildSessionDownload(input: SessionExportInput): { fileName: string; data: Uint8Array } {
  return { fileName: sessionFileName(input.session.title), data: exportSessionFile(input) };
}

/**
 * Validates a session file and stores it as a NEW session titled "<original> (imported)", remembering the original's
 * title and dates; throws SessionFileError and stores nothing if invalid.
 */
export async function importSessionIntoStore(store: SessionStore, data: Uint8Array | Blob): Promise<SessionRecord> {
  const file = await readSessionFileForStorage(data);
  const { title, createdAt, exportedAt } = file.header;
  return store.importSession({
    title: importedTitle(title),
    importedFrom: { title, createdAt, exportedAt },
    model: file.header.model,
    provider: file.header.provider,
    createdAt,
    messages: file.messages,
    compactions: file.compactions,
    storedEntries: file.storedEntries,
    latest: zipFromFiles(file.workspace),
    baseline: file.baseline ? zipFromFiles(file.baseline) : undefined,
    checkpoints: file.checkpoints,
  });
}

const IMPORTED = ' (imported)';

/** The title of an imported session: the original's with " (imported)" (once, when a re-shared import comes back). */
export function importedTitle(title: string): string {
  const base = title.trim() || 'Untitled';
  return base.endsWith(IMPORTED) ? base : `${base.slice(0, 200 - IMPORTED.length)}${IMPORTED}`;
}

/** Puts one changed file back as it was in the baseline (deleting it if it was added). */
export async function revertChange(runtime: Pick<Runtime, 'workdir' | 'writeFile' | 'rm'>, change: FileChange, baseline: FileMap): Promise<void> {
  const target = `${runtime.workdir.replace(/\/$/, '')}/${change.path}`;
  if (change.status === 'added') return runtime.rm(target);
  const original = baseline.get(change.path);
  if (!original) throw new Error(`${change.path} is not in the baseline, so there is nothing to revert it to.`);
  await runtime.writeFile(target, original);
}
