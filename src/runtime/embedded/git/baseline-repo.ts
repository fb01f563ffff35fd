// Makes the workspace a git repository whose first commit is the imported baseline: the files as they were
// imported, whatever the workspace holds now. The index matches that commit, so `git status` and `git diff` then show
// exactly what changed since the import, like the Changes tab. A file's blob id is the snapshot store's where the
// page sends it, else hashed in one synchronous pass; the trees are hashed once; everything is written as
// uncompressed packs (baseline/), so a 20,000-file import costs no deflate and no task per file.

import type { FileSystem, Git } from 'just-git';
import { createCommit } from 'just-git/repo';
import type { WorkspaceBaseline } from '../../types';
import { encodeIndex, type IndexEntry, type IndexStat } from './git-index';
import { indexStatOf, modeOf, type FileStats } from './fast/work-tree-scan';
import { objectHasher } from './baseline/object-hasher';
import { writeStoredPacks, type PackedObject } from './baseline/stored-pack';
import { treeObjects } from './baseline/tree-objects';

/** Who made the baseline commit. */
export const BASELINE_AUTHOR = { name: 'Conch', email: 'conch@localhost' };
/** The branch the baseline commit starts. */
export const BASELINE_BRANCH = 'main';
const PLAIN_FILE_MODE = 0o100644;

/** The baseline commit as written: its id and tree, and the index file with its entries in the file's order. */
export type BaselineCommit = { commit: string; tree: string; index: Uint8Array; entries: IndexEntry[] };

/**
 * Initialises a repository in `workdir` on `fs` and commits `baseline` as its first commit ("Imported <name>",
 * author Conch, at `date`), with the index staging exactly those files and `origin` set to its remote URL if it has
 * one; the work tree is not touched. Returns what it wrote, so that the first status need not read it back.
 */
export async function commitBaseline(git: Git, fs: FileSystem, workdir: string, baseline: WorkspaceBaseline, date = new Date(), stats?: FileStats): Promise<BaselineCommit> {
  const asked = baseline.files(); // the page reads them from its store meanwhile
  asked.catch(() => undefined); // awaited below; a failure of init first must not leave it unhandled
  const init = await git.exec(`init -b ${BASELINE_BRANCH}`, { fs, cwd: workdir });
  if (init.exitCode !== 0) throw new Error(init.stderr.trim() || `git init failed with exit code ${init.exitCode}`);
  const repo = await git.findRepo({ fs, cwd: workdir });
  if (!repo) throw new Error(`git init did not leave a repository in ${workdir}`);
  if (baseline.remoteUrl) await addOrigin(git, fs, workdir, baseline.remoteUrl);

  const files = await asked;
  const hasher = await objectHasher();
  const entries: IndexEntry[] = [];
  const objects: PackedObject[] = [];
  const packed = new Set<string>();
  const pack = (object: PackedObject) => {
    if (packed.has(object.id)) return; // the same bytes twice are one object
    packed.add(object.id);
    objects.push(object);
  };
  for (const file of files) {
    // A baseline that came with its own .git keeps it as the repository, not as tracked files.
    if (file.path.split('/').includes('.git')) continue;
    const blobId = file.blobId ?? hasher.objectId('blob', file.data);
    pack({ id: blobId, type: 'blob', body: file.data });
    entries.push({ path: file.path, blobId, mode: PLAIN_FILE_MODE, stat: await unchangedStat(fs, stats, `${workdir}/${file.path}`, file.data) });
  }
  const { root: tree, trees } = treeObjects(entries, hasher);
  for (const object of trees) pack({ id: object.id, type: 'tree', body: object.body });
  await writeStoredPacks(fs, repo.gitDir, objects, hasher);
  repo.objectStore.invalidatePacks?.(); // it may have looked for packs before these were there
  const author = { ...BASELINE_AUTHOR, date };
  const commit = await createCommit(repo, { tree, parents: [], author, committer: author, message: `Imported ${baseline.name}\n`, branch: BASELINE_BRANCH });
  const index = await encodeIndex(entries);
  await fs.writeFile(`${repo.gitDir}/index`, index);
  return { commit, tree, index, entries: entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)) };
}

// A work-tree file still holding exactly the imported bytes gets its stat data in the index, so the first status
// after the import does not read and hash the whole tree again.
async function unchangedStat(fs: FileSystem, stats: FileStats | undefined, path: string, data: Uint8Array): Promise<IndexStat | undefined> {
  const info = stats?.stat(path);
  if (!stats || !info || info.kind !== 'file' || info.token === 0 || info.size !== data.length || modeOf(info) !== PLAIN_FILE_MODE) return undefined;
  const now = stats.contents?.(path) ?? (await fs.readFileBuffer(path));
  return now === data || sameBytes(now, data) ? indexStatOf(info, stats.numbering) : undefined;
}

// 45 MB are compared on a big import: four bytes at a time where both views allow it.
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let i = 0;
  if (a.byteOffset % 4 === 0 && b.byteOffset % 4 === 0) {
    const words = a.length >>> 2;
    const x = new Uint32Array(a.buffer, a.byteOffset, words);
    const y = new Uint32Array(b.buffer, b.byteOffset, words);
    for (; i < words; i++) if (x[i] !== y[i]) return false;
    i = words * 4;
  }
  for (; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

async function addOrigin(git: Git, fs: FileSystem, workdir: string, url: string): Promise<void> {
  // The URL is one argument to git: anything that could split it or reach a shell is refused.
  if (!/^https?:\/\/[^\s'"`$;&|<>\\]+$/.test(url)) throw new Error(`the baseline's remote URL "${url}" is not a plain http(s) address`);
  const added = await git.exec(`remote add origin ${url}`, { fs, cwd: workdir });
  if (added.exitCode !== 0) throw new Error(added.stderr.trim() || `git remote add failed with exit code ${added.exitCode}`);
}
