// `git diff` in its everyday forms: the work tree against the index (no revision), the index against HEAD
// (`--cached`/`--staged`), the work tree against HEAD (`HEAD`), each as a patch, `--stat`, `--name-only` or
// `--name-status`. Only the changed files are compared: their two sides become two small trees in an in-memory
// overlay of the repository, and just-git's own formatter (the one behind its `git diff`) writes the patch, so the
// text is git's. Anything else returns null, and just-git runs the command.
import { createCommit, diffCommits, formatDiff, overlayRepo, readBlob, updateTree, writeTree, type GitRepo } from 'just-git/repo';
import type { GitResult } from '../git-arguments';
import { needsQuoting } from './status-command';
import { formatStat } from './diff-stat';
import type { WorkTreeState } from './work-tree-state';
import { saveRefreshed } from './work-tree-state';
import type { IndexedListingFs } from '../indexed-listing-fs';

type Side = 'index' | 'work tree';
type Request = { from: 'index' | 'HEAD'; to: Side; output: 'patch' | 'stat' | 'name-only' | 'name-status' };
/** One side of a changed path: its blob and mode, or absent. */
type Version = { blobId: string; mode: number; data?: Uint8Array } | null;
type Pair = { path: string; before: Version; after: Version };

const OUTPUTS: Record<string, Request['output']> = { '--stat': 'stat', '--name-only': 'name-only', '--name-status': 'name-status' };
const SOMEONE = { name: 'Conch', email: 'conch@localhost', date: new Date(0) };

/** What `args` (after `diff`) ask for, or null when this file does not do it. */
export function diffRequest(args: readonly string[]): Request | null {
  const request: Request = { from: 'index', to: 'work tree', output: 'patch' };
  for (const arg of args) {
    if (arg === '--cached' || arg === '--staged') Object.assign(request, { from: 'HEAD', to: 'index' });
    else if (arg === 'HEAD' && request.to === 'work tree') request.from = 'HEAD';
    else if (arg in OUTPUTS) request.output = OUTPUTS[arg];
    else return null;
  }
  return request;
}

/** `git diff` as `request` asks, at the top of the work tree; null when a path would need quoting or a rename scoring. */
export async function runDiff(fs: IndexedListingFs, state: WorkTreeState, request: Request): Promise<GitResult | null> {
  const pairs = changedPairs(state, request);
  if (!pairs || pairs.some((pair) => needsQuoting(pair.path))) return null;
  await saveRefreshed(fs, state);
  if (pairs.length === 0) return { stdout: '', stderr: '', exitCode: 0 };
  if (request.output === 'name-only') return done(pairs.map((pair) => `${pair.path}\n`).join(''));
  if (request.output === 'name-status') return done(pairs.map((pair) => `${pair.before ? (pair.after ? 'M' : 'D') : 'A'}\t${pair.path}\n`).join(''));
  const overlay = overlayRepo(state.repo);
  const before = await commitOf(overlay, pairs.map((pair) => ({ path: pair.path, version: pair.before })));
  const after = await commitOf(overlay, pairs.map((pair) => ({ path: pair.path, version: pair.after })));
  if (request.output === 'patch') return done(await formatDiff(overlay, before, after, { renames: false }));
  const contents = await Promise.all(pairs.map(async (pair) => Promise.all([pair.before, pair.after].map((version) => (version ? (version.data ?? readBlob(overlay, version.blobId)) : new Uint8Array())))));
  const stat = formatStat(await diffCommits(overlay, before, after, { renames: false }), contents.some(([a, b]) => isBinary(a) || isBinary(b)));
  return stat === null ? null : done(stat);
}

/** The paths whose two sides differ, in path order; null when a staged rename would have to be scored. */
function changedPairs(state: WorkTreeState, request: Request): Pair[] | null {
  const indexed = new Map(state.index.map((entry) => [entry.path, { blobId: entry.blobId, mode: entry.mode }]));
  const pairs = new Map<string, Pair>();
  if (request.from === 'HEAD') {
    const staged = state.staged;
    // A rename git would pair shows as a rename in its patch: left to just-git, like a rename still to be scored.
    if (!staged || staged.some((change) => change.kind === 'renamed')) return null;
    for (const change of staged) pairs.set(change.path, { path: change.path, before: state.head.get(change.path) ?? null, after: indexed.get(change.path) ?? null });
  }
  if (request.to === 'work tree') {
    for (const change of state.scan.changes) {
      const path = change.entry.path;
      const before = request.from === 'HEAD' ? (state.head.get(path) ?? null) : { blobId: change.entry.blobId, mode: change.entry.mode };
      const after = change.kind === 'deleted' ? null : { blobId: change.blobId, mode: change.mode, data: change.data };
      if ((!before && !after) || (before && after && before.blobId === after.blobId && before.mode === after.mode)) pairs.delete(path);
      else pairs.set(path, { path, before, after });
    }
  }
  return [...pairs.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
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

// git's test: a NUL byte in the first 8,000 bytes makes a file binary.
function isBinary(data: Uint8Array): boolean {
  return data.subarray(0, 8000).includes(0);
}

function done(stdout: string): GitResult {
  return { stdout, stderr: '', exitCode: 0 };
}
