// Everything `git status`, `git diff` and `git add` compare, gathered once per command: HEAD's files, the index and
// the work tree (stat-cached, work-tree-scan.ts). Null when the repository is in a state the fast paths leave to
// just-git (no commit yet, detached HEAD, a merge or rebase under way, merge conflicts, an upstream branch to report).
import type { Git } from 'just-git';
import { diffTrees, flattenTree, readBlob, readCommit, readHead, type GitRepo } from 'just-git/repo';
import { hexOf } from '../../../object-id';
import { decodeIndex, encodeIndex, type IndexEntry } from '../git-index';
import { stagedChanges, type HeadFile, type StagedChange } from './staged-changes';
import type { IndexedListingFs } from '../indexed-listing-fs';
import { scanWorkTree, type FileStats, type WorkTreeScan } from './work-tree-scan';


export type WorkTreeState = {
  repo: GitRepo;
  gitDir: string;
  workTree: string;
  branch: string;
  headCommit: string;
  headTree: string;
  head: ReadonlyMap<string, HeadFile>;
  /** The index as it is now, stat data refreshed (written back by `save` when it changed). */
  index: IndexEntry[];
  scan: WorkTreeScan;
  /** What the index stages against HEAD (staged-changes.ts; null: a rename to score, left to just-git). */
  staged: StagedChange[] | null;
  /** Where this state came from, told of each index written so that the next command need not decode it. */
  cache: HeadTreeCache;
};

// Files whose presence means an operation is under way, which status reports and the fast paths do not.
const OPERATION_FILES = ['MERGE_HEAD', 'CHERRY_PICK_HEAD', 'REVERT_HEAD', 'BISECT_LOG', 'rebase-merge', 'rebase-apply'];

/**
 * HEAD's flattened tree, kept for the next command. When HEAD moves (a commit), the new tree is found from the old
 * one by diffing the two, which reads only the subtrees that changed.
 */
export class HeadTreeCache {
  private treeId = '';
  private files: Map<string, HeadFile> = new Map();
  /** The last index read, by its trailing checksum, and what it staged against which tree. */
  private index: { checksum: string; entries: IndexEntry[]; tree: string; staged: StagedChange[] | null } | null = null;

  /** `entries` were just written as the index file `bytes`: the next read of it takes them as they are. */
  remember(bytes: Uint8Array, entries: IndexEntry[]): void {
    this.index = { checksum: hexOf(bytes.subarray(bytes.length - 20)), entries, tree: '', staged: null };
  }

  /** The entries of the index file `bytes` and what they stage against `treeId`, decoded again only when they changed. */
  async indexOf(repo: GitRepo, bytes: Uint8Array, treeId: string, head: ReadonlyMap<string, HeadFile>): Promise<{ entries: IndexEntry[]; staged: StagedChange[] | null } | null> {
    const checksum = hexOf(bytes.subarray(bytes.length - 20));
    if (this.index?.checksum !== checksum) {
      const decoded = decodeIndex(bytes);
      if (decoded.conflicted) return null;
      this.index = { checksum, entries: decoded.entries, tree: '', staged: null };
    }
    if (this.index.tree !== treeId) Object.assign(this.index, { tree: treeId, staged: await stagedChanges(head, this.index.entries, blobSize(repo)) });
    return this.index;
  }

  /** A tree just written, with its files: the next command takes them as they are. */
  know(treeId: string, files: Map<string, HeadFile>): void {
    this.treeId = treeId;
    this.files = files;
  }

  async get(repo: GitRepo, treeId: string): Promise<ReadonlyMap<string, HeadFile>> {
    if (treeId === this.treeId) return this.files;
    const files = this.treeId === '' ? await flattened(repo, treeId) : await this.moved(repo, treeId);
    this.treeId = treeId;
    this.files = files;
    return files;
  }

  private async moved(repo: GitRepo, treeId: string): Promise<Map<string, HeadFile>> {
    const changes = await diffTrees(repo, this.treeId, treeId);
    if (changes.length > this.files.size / 4) return flattened(repo, treeId);
    const files = new Map(this.files);
    for (const change of changes) {
      if (change.status === 'deleted' || !change.newHash || !change.newMode) files.delete(change.path);
      else files.set(change.path, { blobId: change.newHash, mode: parseInt(change.newMode, 8) });
    }
    return files;
  }
}

/** A blob's size, as stagedChanges asks for it. */
export function blobSize(repo: GitRepo): (blobId: string) => Promise<number> {
  return async (blobId) => (await readBlob(repo, blobId)).length;
}

async function flattened(repo: GitRepo, treeId: string): Promise<Map<string, HeadFile>> {
  const files = new Map<string, HeadFile>();
  for (const entry of await flattenTree(repo, treeId)) files.set(entry.path, { blobId: entry.hash, mode: parseInt(entry.mode, 8) });
  return files;
}

/**
 * The state of the repository at `cwd` (see the file comment), or null to leave the command to just-git. Without
 * `scanning` the work tree is not looked at (a commit of what is staged needs only HEAD and the index): the scan
 * then reports no change.
 */
export async function readWorkTreeState(git: Git, fs: IndexedListingFs, cwd: string, stats: FileStats, heads: HeadTreeCache, scanning = true): Promise<WorkTreeState | null> {
  const repo = await git.findRepo({ fs, cwd });
  if (!repo || !repo.workTree) return null;
  const { gitDir, workTree } = repo;
  for (const name of OPERATION_FILES) if (await fs.exists(`${gitDir}/${name}`)) return null;
  if (/^\s*\[branch\s/m.test(await readText(fs, `${gitDir}/config`))) return null; // upstream lines to print
  const headInfo = await readHead(repo);
  if (!headInfo.branch || !headInfo.hash) return null;
  let indexBytes: Uint8Array;
  try {
    indexBytes = await fs.readFileBuffer(`${gitDir}/index`);
  } catch {
    return null;
  }
  const commit = await readCommit(repo, headInfo.hash);
  const head = await heads.get(repo, commit.tree);
  const index = await heads.indexOf(repo, indexBytes, commit.tree, head);
  if (!index) return null;
  const scan = scanning ? await scanWorkTree(fs, stats, workTree, index.entries) : { changes: [], entries: index.entries, refreshed: false };
  return { repo, gitDir, workTree, branch: headInfo.branch, headCommit: headInfo.hash, headTree: commit.tree, head, index: scan.entries, scan, staged: index.staged, cache: heads };
}

/** Writes `entries` as the index of `state`'s repository. */
export async function writeIndex(fs: IndexedListingFs, state: WorkTreeState, entries: readonly IndexEntry[]): Promise<void> {
  const sorted = [...entries].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const bytes = await encodeIndex(sorted);
  await fs.writeFile(`${state.gitDir}/index`, bytes);
  // Only plain-ASCII orders are certain to be the file's own; others are decoded again next time.
  if (sorted.every((entry) => /^[\x00-\x7f]*$/.test(entry.path))) state.cache.remember(bytes, sorted);
}

/** Writes the refreshed stat data back, when the scan refreshed any (what real git's status does too). */
export async function saveRefreshed(fs: IndexedListingFs, state: WorkTreeState): Promise<void> {
  if (state.scan.refreshed) await writeIndex(fs, state, state.index);
}

async function readText(fs: IndexedListingFs, path: string): Promise<string> {
  try {
    return await fs.readFile(path);
  } catch {
    return '';
  }
}
