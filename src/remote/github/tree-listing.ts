// The files of a commit (or of one folder of it), from GitHub's trees API: one recursive listing when it fits. GitHub
// cuts a recursive listing short past 100,000 entries or 7 MB and says `truncated: true`; then the folder is listed
// on its own and each subfolder walked the same way, so any repository is listed whole in a few requests more.
// Submodules are listed as not imported; symlinks are kept as such. Paths are checked as a zip's are.
import { normalizePath, unsafePathReason } from '../../store/zip/workspace-paths';
import type { RepoLocation } from '../repo-url';
import type { GitHubClient } from './api';
import { FolderNotFoundError, RepoTooLargeError, UnexpectedAnswerError, UnsafePathError } from './errors';
import { repoPath, type ResolvedRef } from './resolve';

export type ListedFile = {
  /** Relative to the imported folder. */
  path: string;
  /** Relative to the repository's root. */
  repoPath: string;
  sha: string;
  size: number;
  mode: 'file' | 'executable' | 'symlink';
};

export type NotImported = { path: string; reason: 'submodule' | 'lfs-pointer' };

export type TreeListing = { files: ListedFile[]; skipped: NotImported[] };

type TreeEntry = { path: string; mode: string; type: 'blob' | 'tree' | 'commit'; sha: string; size?: number };

const OBJECT_ID = /^[0-9a-f]{40}$/;

/** Every file below the resolved folder, with its blob id, size and mode. */
export async function listFiles(client: GitHubClient, location: RepoLocation, resolved: ResolvedRef): Promise<TreeListing> {
  const fullName = `${location.owner}/${location.repo}`;
  const trees = `${repoPath(location)}/git/trees`;
  const folder = normalizePath(resolved.folder);
  const listing: TreeListing = { files: [], skipped: [] };

  const list = async (sha: string, recursive: boolean): Promise<{ entries: TreeEntry[]; truncated: boolean }> => {
    const { body } = await client.get(`${trees}/${sha}${recursive ? '?recursive=1' : ''}`, `the files of ${fullName}`);
    const { tree, truncated } = (body ?? {}) as { tree?: unknown; truncated?: unknown };
    if (!Array.isArray(tree) || !tree.every(isTreeEntry)) throw new UnexpectedAnswerError(`the files of ${fullName}`, 'a listing GitHub does not send');
    return { entries: tree, truncated: truncated === true };
  };

  const add = (entry: TreeEntry, base: string) => {
    const repoPathOf = base + entry.path;
    const reason = unsafePathReason(repoPathOf) ?? gitFolderReason(repoPathOf);
    if (reason) throw new UnsafePathError(repoPathOf, reason);
    const path = normalizePath(repoPathOf).slice(folder ? folder.length + 1 : 0);
    if (entry.type === 'commit') listing.skipped.push({ path, reason: 'submodule' });
    else if (entry.type === 'blob') {
      const mode = entry.mode === '120000' ? 'symlink' : entry.mode === '100755' ? 'executable' : 'file';
      listing.files.push({ path, repoPath: normalizePath(repoPathOf), sha: entry.sha, size: entry.size ?? 0, mode });
    }
  };

  const walk = async (sha: string, base: string): Promise<void> => {
    const whole = await list(sha, true);
    if (!whole.truncated) return whole.entries.forEach((entry) => add(entry, base));
    const top = await list(sha, false);
    if (top.truncated) {
      throw new RepoTooLargeError(`The folder "${base || '/'}" of ${fullName} holds more entries than GitHub lists at once. Nothing was imported.`);
    }
    const folders = top.entries.filter((entry) => entry.type === 'tree');
    top.entries.filter((entry) => entry.type !== 'tree').forEach((entry) => add(entry, base));
    await Promise.all(folders.map((entry) => walk(entry.sha, `${base}${entry.path}/`)));
  };

  const start = folder ? await folderTree(resolved.treeSha, folder) : resolved.treeSha;
  await walk(start, folder ? `${folder}/` : '');
  listing.files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return listing;

  async function folderTree(rootSha: string, path: string): Promise<string> {
    let sha = rootSha;
    for (const name of path.split('/')) {
      const entry = (await list(sha, false)).entries.find((e) => e.path === name);
      if (entry?.type !== 'tree') throw new FolderNotFoundError(fullName, resolved.ref, path);
      sha = entry.sha;
    }
    return sha;
  }
}

// Git itself refuses `.git` in a tree: a listing that has one is not a repository's files.
function gitFolderReason(path: string): string | null {
  return path.split('/').some((segment) => segment.toLowerCase() === '.git') ? 'is inside a .git folder' : null;
}

function isTreeEntry(value: unknown): value is TreeEntry {
  const entry = value as Partial<TreeEntry> | null;
  return (
    typeof entry?.path === 'string' &&
    typeof entry.mode === 'string' &&
    (entry.type === 'blob' || entry.type === 'tree' || entry.type === 'commit') &&
    typeof entry.sha === 'string' &&
    OBJECT_ID.test(entry.sha) &&
    (entry.type !== 'blob' || (Number.isInteger(entry.size) && (entry.size ?? -1) >= 0))
  );
}
