// `git diff` in its everyday forms: the work tree against the index (no revision), the index against HEAD
// (`--cached`/`--staged`), the work tree against HEAD (`HEAD`), each as a patch, `--stat`, `--name-only` or
// `--name-status`. Only the changed files are compared: their two sides become two small trees in an in-memory
// overlay of the repository, and just-git's own formatter (the one behind its `git diff`) writes the patch, so the
// text is git's. Anything else returns null, and just-git runs the command.
import { createCommit, diffCommits, flattenTree, formatDiff, overlayRepo, readBlob, readCommit, revParse, updateTree, writeTree, type GitRepo } from 'just-git/repo';
import { stagedChanges } from './staged-changes';
import type { GitResult } from '../git-arguments';
import { needsQuoting } from './status-command';
import { formatStat, isBinary, type StatRow } from './diff-stat';
import { renameText } from './commit-command';
import { correctPatch, type PatchFile } from './patch-text';
import { blobSize, saveRefreshed, type WorkTreeState } from './work-tree-state';
import type { HeadFile } from './staged-changes';
import type { IndexedListingFs } from '../indexed-listing-fs';

type Side = 'index' | 'work tree';
/** `from` is 'index' or a revision ('HEAD', 'HEAD~1', a commit id). */
type Request = { from: string; to: Side; output: 'patch' | 'stat' | 'name-only' | 'name-status' };
/** One side of a changed path: its blob and mode, or absent. */
type Version = { blobId: string; mode: number; data?: Uint8Array } | null;
/** A changed path; a rename is two, its old path (`to` set, shown under the new one) and its new path (`from` set). */
type Pair = { path: string; before: Version; after: Version; from?: string; to?: string };

const OUTPUTS: Record<string, Request['output']> = { '--stat': 'stat', '--name-only': 'name-only', '--name-status': 'name-status' };
const SOMEONE = { name: 'Conch', email: 'conch@localhost', date: new Date(0) };

/** What `args` (after `diff`) ask for, or null when this file does not do it. */
export function diffRequest(args: readonly string[]): Request | null {
  const request: Request = { from: 'index', to: 'work tree', output: 'patch' };
  for (const arg of args) {
    if (arg === '--cached' || arg === '--staged') Object.assign(request, { from: 'HEAD', to: 'index' });
    else if (request.to === 'work tree' && request.from === 'index' && /^(HEAD|[0-9a-f]{7,40}|[A-Za-z][\w./-]*)(~\d*|\^\d?)*$/.test(arg)) request.from = arg;
    else if (arg in OUTPUTS) request.output = OUTPUTS[arg];
    else return null;
  }
  return request;
}

/** `git diff` as `request` asks, at the top of the work tree; null when a path would need quoting or a rename scoring. */
export async function runDiff(fs: IndexedListingFs, state: WorkTreeState, request: Request): Promise<GitResult | null> {
  const base = request.from === 'index' || request.from === 'HEAD' ? state.head : await filesAt(state.repo, request.from);
  if (!base) return null; // not a revision: a path, which just-git takes as one
  const pairs = await changedPairs(state, request, base);
  if (!pairs || pairs.some((pair) => needsQuoting(pair.path))) return null;
  await saveRefreshed(fs, state);
  if (pairs.length === 0) return { stdout: '', stderr: '', exitCode: 0 };
  const shown = pairs.filter((pair) => pair.to === undefined);
  if (request.output === 'name-only') return done(shown.map((pair) => `${pair.path}\n`).join(''));
  if (request.output === 'name-status') {
    return done(shown.map((pair) => (pair.from !== undefined ? `R100\t${pair.from}\t${pair.path}\n` : `${pair.before ? (pair.after ? 'M' : 'D') : 'A'}\t${pair.path}\n`)).join(''));
  }
  const renames = pairs.some((pair) => pair.from !== undefined);
  const overlay = overlayRepo(state.repo);
  const before = await commitOf(overlay, pairs.map((pair) => ({ path: pair.path, version: pair.before })));
  const after = await commitOf(overlay, pairs.map((pair) => ({ path: pair.path, version: pair.after })));
  const contents = await Promise.all(pairs.map(async (pair) => Promise.all([pair.before, pair.after].map((version) => (version ? (version.data ?? readBlob(overlay, version.blobId)) : new Uint8Array())))));
  if (request.output === 'patch') {
    const files: PatchFile[] = pairs.map((pair, i) => ({
      path: pair.path,
      before: pair.before ? { data: contents[i][0], mode: pair.before.mode } : null,
      after: pair.after ? { data: contents[i][1], mode: pair.after.mode } : null,
    }));
    return done(correctPatch(await formatDiff(overlay, before, after, { renames }), files));
  }
  const counts = new Map<string, { added: number; deleted: number }>();
  for (const diff of await diffCommits(overlay, before, after, { renames })) {
    let added = 0;
    let deleted = 0;
    for (const hunk of diff.hunks) for (const line of hunk.lines) line[0] === '+' ? added++ : line[0] === '-' ? deleted++ : 0;
    counts.set(diff.path, { added, deleted });
  }
  const rows: StatRow[] = [];
  pairs.forEach((pair, i) => {
    if (pair.to !== undefined) return;
    const name = pair.from !== undefined ? renameText(pair.from, pair.path) : pair.path;
    const [old, now] = contents[i];
    if (isBinary(old) || isBinary(now)) rows.push({ name, added: 0, deleted: 0, binary: { before: old.length, after: now.length } });
    else rows.push({ name, ...(pair.from !== undefined ? { added: 0, deleted: 0 } : (counts.get(pair.path) ?? { added: 0, deleted: 0 })) });
  });
  const stat = formatStat(rows);
  return stat === null ? null : done(stat);
}

/** The paths whose two sides differ, in path order; null when a staged rename would have to be scored. */
async function changedPairs(state: WorkTreeState, request: Request, base: ReadonlyMap<string, HeadFile>): Promise<Pair[] | null> {
  const indexed = new Map(state.index.map((entry) => [entry.path, { blobId: entry.blobId, mode: entry.mode }]));
  const pairs = new Map<string, Pair>();
  if (request.from !== 'index') {
    const staged = base === state.head ? state.staged : await stagedChanges(base, state.index, blobSize(state.repo));
    // A rename whose new file changed again in the work tree would have to be scored again: left to just-git.
    const unstaged = new Set(state.scan.changes.map((change) => change.entry.path));
    if (!staged || (request.to === 'work tree' && staged.some((change) => change.kind === 'renamed' && unstaged.has(change.path)))) return null;
    for (const change of staged) {
      const after = indexed.get(change.path) ?? null;
      if (change.kind !== 'renamed') pairs.set(change.path, { path: change.path, before: base.get(change.path) ?? null, after });
      else {
        pairs.set(change.from, { path: change.from, before: base.get(change.from) ?? null, after: null, to: change.path });
        pairs.set(change.path, { path: change.path, before: null, after, from: change.from });
      }
    }
  }
  if (request.to === 'work tree') {
    for (const change of state.scan.changes) {
      const path = change.entry.path;
      const before = request.from !== 'index' ? (base.get(path) ?? null) : { blobId: change.entry.blobId, mode: change.entry.mode };
      const after = change.kind === 'deleted' ? null : { blobId: change.blobId, mode: change.mode, data: change.data };
      if ((!before && !after) || (before && after && before.blobId === after.blobId && before.mode === after.mode)) pairs.delete(path);
      else pairs.set(path, { path, before, after });
    }
  }
  return [...pairs.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The files of the commit `revision` names, or null when it names none. */
async function filesAt(repo: GitRepo, revision: string): Promise<Map<string, HeadFile> | null> {
  const id = await revParse(repo, revision);
  if (!id) return null;
  const files = new Map<string, HeadFile>();
  for (const entry of await flattenTree(repo, (await readCommit(repo, id)).tree)) files.set(entry.path, { blobId: entry.hash, mode: parseInt(entry.mode, 8) });
  return files;
}

/** A commit in `overlay` whose tree holds just these versions (absent ones left out). */
async function commitOf(overlay: GitRepo, files: { path: string; version: Version }[]): Promise<string> {
  const updates = [];
  for (const { path, version } of files) {
    if (!version) continue;
    const blobId = version.data ? await overlay.objectStore.write('blob', version.data) : version.blobId;
    updates.push({ path, hash: blobId, mode: version.mode.toString(8) });
  }
  const tree = await updateTree(overlay, await writeTree(overlay, []), updates);
  return createCommit(overlay, { tree, parents: [], author: SOMEONE, committer: SOMEONE, message: 'diff side\n' });
}

function done(stdout: string): GitResult {
  return { stdout, stderr: '', exitCode: 0 };
}
