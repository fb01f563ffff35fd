// Importing a GitHub repository (or one folder of it) at a ref: resolve the ref, list the tree, refuse what is over
// the zip import's limits before any content is fetched, then fetch and verify every file. All or nothing: a failure
// stops every request still in flight and returns nothing partial, so the session stays as it was.
import { ImportCancelledError } from '../../store/errors';
import { DEFAULT_MAX_FILES, DEFAULT_MAX_TOTAL_BYTES, formatBytes } from '../../store/zip/repo-zip';
import type { RepoLocation } from '../repo-url';
import { GitHubClient, type GitHubAccess, type RequestCounts } from './api';
import { fetchContents, type ContentsProgress } from './contents';
import { RepoTooLargeError } from './errors';
import { resolveRef } from './resolve';
import { listFiles, type NotImported } from './tree-listing';

export type GitHubImportProgress = { phase: 'listing' } | ({ phase: 'fetching' } & ContentsProgress);

export type GitHubImportOptions = GitHubAccess & {
  onProgress?: (progress: GitHubImportProgress) => void;
  /** The zip import's defaults when not given. */
  limits?: { maxFiles?: number; maxTotalBytes?: number };
};

export type GitHubOrigin = { host: 'github'; owner: string; repo: string; ref: string; sha: string };

export type GitHubImport = {
  /** Regular files by path (relative to the imported folder), symlinks and not-imported files excluded. */
  files: Map<string, Uint8Array>;
  executables: Set<string>;
  /** Symlinks by path, each with its target as git holds it. */
  symlinks: Map<string, string>;
  /** Submodules and Git LFS pointers, one each. */
  skipped: NotImported[];
  origin: GitHubOrigin;
  /** The subfolder imported, '' for the whole repository. */
  folder: string;
  totalBytes: number;
  requests: RequestCounts;
};

// Git LFS pointer files are small text files that open with this line (Git LFS's spec: under 1024 bytes).
const LFS_POINTER = new TextEncoder().encode('version https://git-lfs.github.com/spec/v1');
const LFS_POINTER_MAX_BYTES = 1024;
const decoder = new TextDecoder();

/** The files of `location` on GitHub; throws a GitHubError (or ImportCancelledError) and returns nothing partial. */
export async function importGitHubRepo(location: RepoLocation, options: GitHubImportOptions): Promise<GitHubImport> {
  const outer = options.signal;
  if (outer?.aborted) throw new ImportCancelledError();
  const inner = new AbortController();
  const cancel = () => inner.abort();
  outer?.addEventListener('abort', cancel, { once: true });
  const client = new GitHubClient({ ...options, signal: inner.signal });
  try {
    options.onProgress?.({ phase: 'listing' });
    const resolved = await resolveRef(client, location);
    const listing = await listFiles(client, location, resolved);
    const totalBytes = listing.files.reduce((sum, file) => sum + file.size, 0);
    checkLimits(`${location.owner}/${location.repo}`, listing.files.length, totalBytes, options.limits);
    const contents = await fetchContents(client, location, resolved.sha, listing.files, (progress) =>
      options.onProgress?.({ phase: 'fetching', ...progress }),
    );

    const result: GitHubImport = {
      files: new Map(),
      executables: new Set(),
      symlinks: new Map(),
      skipped: [...listing.skipped],
      origin: { host: 'github', owner: location.owner, repo: location.repo, ref: resolved.ref, sha: resolved.sha },
      folder: resolved.folder,
      totalBytes,
      requests: client.requests,
    };
    for (const file of listing.files) {
      const data = contents.get(file.sha) ?? new Uint8Array(0);
      if (file.mode === 'symlink') result.symlinks.set(file.path, decoder.decode(data));
      else if (isLfsPointer(data)) result.skipped.push({ path: file.path, reason: 'lfs-pointer' });
      else {
        result.files.set(file.path, data);
        if (file.mode === 'executable') result.executables.add(file.path);
      }
    }
    result.skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    if (outer?.aborted) throw new ImportCancelledError();
    return result;
  } catch (error) {
    inner.abort();
    throw outer?.aborted ? new ImportCancelledError() : error;
  } finally {
    outer?.removeEventListener('abort', cancel);
  }
}

function checkLimits(fullName: string, files: number, bytes: number, limits: GitHubImportOptions['limits'] = {}): void {
  const maxFiles = limits.maxFiles ?? DEFAULT_MAX_FILES;
  const maxBytes = limits.maxTotalBytes ?? DEFAULT_MAX_TOTAL_BYTES;
  const instead = 'Nothing was imported; import one folder of it (…/tree/BRANCH/FOLDER) instead.';
  if (files > maxFiles) {
    throw new RepoTooLargeError(`${fullName} has ${files.toLocaleString('en')} files; the limit is ${maxFiles.toLocaleString('en')}. ${instead}`);
  }
  if (bytes > maxBytes) throw new RepoTooLargeError(`${fullName} holds ${formatBytes(bytes)}; the limit is ${formatBytes(maxBytes)}. ${instead}`);
}

function isLfsPointer(data: Uint8Array): boolean {
  return data.length < LFS_POINTER_MAX_BYTES && data.length >= LFS_POINTER.length && LFS_POINTER.every((byte, i) => data[i] === byte);
}
