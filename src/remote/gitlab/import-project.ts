// Importing a GitLab project (or one folder of it) at a ref: resolve the ref to a commit, download that commit's
// archive.zip (a folder import asks GitLab for that folder only, and keeps only it either way), and read it through
// the zip import, with its limits and messages. All or nothing: a failure or a cancel returns nothing partial, so
// the session stays as it was.
import { ImportCancelledError } from '../../store/errors';
import type { FileMap } from '../../store/file-map';
import {
  DEFAULT_MAX_FILES, DEFAULT_MAX_TOTAL_BYTES, formatBytes, readRepoZip, type ZipImportOptions, type ZipImportProgress, type ZipImportResult,
} from '../../store/zip/repo-zip';
import type { RepoLocation } from '../repo-url';
import { GitLabClient, type GitLabAccess, type GitLabRequestCounts } from './api';
import { ArchiveTooLargeError, FolderNotFoundError, UnexpectedAnswerError } from './errors';
import { resolveProject, type ResolvedProject } from './resolve';

export type GitLabImportProgress =
  | { phase: 'listing' }
  | { phase: 'fetching'; bytes: number; totalBytes: number | null }
  | ({ phase: 'unpacking' } & ZipImportProgress);

export type GitLabImportOptions = GitLabAccess & {
  onProgress?: (progress: GitLabImportProgress) => void;
  /** The zip import's limits; its defaults when not given. */
  limits?: Pick<ZipImportOptions, 'maxFiles' | 'maxTotalBytes' | 'maxRatio'>;
};

export type GitLabOrigin = { host: 'gitlab'; owner: string; repo: string; ref: string; sha: string };

export type GitLabImport = {
  /** Files by path, relative to the imported folder. */
  files: FileMap;
  /** What the zip import left out (symlinks, OS metadata, …), paths relative to the folder too. */
  skipped: ZipImportResult['skipped'];
  origin: GitLabOrigin;
  /** The subfolder imported, '' for the whole project. */
  folder: string;
  totalBytes: number;
  requests: GitLabRequestCounts;
};

// A zip of files within the limits weighs at most their bytes plus each entry's two headers and two copies of its
// name; a few KiB an entry is generous, and a download past that is stopped before it fills the tab's memory.
const ENTRY_OVERHEAD_BYTES = 4096;

/** The files of `location` on GitLab; throws a GitLabError, ZipImportError or ImportCancelledError, nothing partial. */
export async function importGitLabProject(location: RepoLocation, options: GitLabImportOptions): Promise<GitLabImport> {
  const { signal, onProgress, limits = {} } = options;
  if (signal?.aborted) throw new ImportCancelledError();
  const client = new GitLabClient(options);
  onProgress?.({ phase: 'listing' });
  const project = await resolveProject(client, location);
  const fullPath = `${project.namespace}/${project.name}`;
  const archive = await download(client, project, fullPath, limits, onProgress);

  const zip = await readRepoZip(archive, { ...limits, signal, onProgress: (progress) => onProgress?.({ phase: 'unpacking', ...progress }) });
  const inFolder = within(project.folder);
  const files: FileMap = new Map();
  let totalBytes = 0;
  for (const [path, data] of zip.files) {
    const relative = inFolder(path);
    if (relative === null) continue;
    files.set(relative, data);
    totalBytes += data.length;
  }
  if (project.folder !== '' && files.size === 0) throw new FolderNotFoundError(fullPath, project.ref, project.folder);
  // The zip import names what it skipped by the archive's paths, top folder included.
  const top = zip.strippedPrefix ?? '';
  const skipped = zip.skipped.flatMap((entry) => {
    const relative = inFolder(entry.path.startsWith(top) ? entry.path.slice(top.length) : entry.path);
    return relative === null ? [] : [{ ...entry, path: relative }];
  });
  if (signal?.aborted) throw new ImportCancelledError();
  return {
    files,
    skipped,
    origin: { host: 'gitlab', owner: project.namespace, repo: project.name, ref: project.ref, sha: project.sha },
    folder: project.folder,
    totalBytes,
    requests: client.requests,
  };
}

async function download(
  client: GitLabClient,
  project: ResolvedProject,
  fullPath: string,
  limits: NonNullable<GitLabImportOptions['limits']>,
  onProgress: GitLabImportOptions['onProgress'],
): Promise<Uint8Array> {
  const maxTotalBytes = limits.maxTotalBytes ?? DEFAULT_MAX_TOTAL_BYTES;
  const maxBytes = maxTotalBytes + (limits.maxFiles ?? DEFAULT_MAX_FILES) * ENTRY_OVERHEAD_BYTES;
  const tooLarge = () =>
    new ArchiveTooLargeError(
      `${fullPath}'s archive passed ${formatBytes(maxBytes)} while downloading: more than a project within the import limit of ` +
        `${formatBytes(maxTotalBytes)} can weigh. Nothing was imported; import one folder of it (…/-/tree/BRANCH/FOLDER) instead.`,
    );
  const folder = project.folder ? `&path=${encodeURIComponent(project.folder)}` : '';
  const what = `the archive of ${fullPath} at ${project.ref}`;
  onProgress?.({ phase: 'fetching', bytes: 0, totalBytes: null });
  const answer = await client.download(
    `/projects/${project.id}/repository/archive.zip?sha=${project.sha}${folder}`,
    what,
    { maxBytes, tooLarge },
    (bytes, totalBytes) => onProgress?.({ phase: 'fetching', bytes, totalBytes }),
    [404],
  );
  if (answer.data) return answer.data;
  if (project.folder !== '') throw new FolderNotFoundError(fullPath, project.ref, project.folder);
  throw new UnexpectedAnswerError(what, `${answer.status}: 404 File Not Found`, answer.status);
}

/** Maps a path of the archive to one relative to `folder`, or null when it lies outside it. */
function within(folder: string): (path: string) => string | null {
  if (folder === '') return (path) => path;
  const prefix = `${folder.replace(/\/+$/, '')}/`;
  return (path) => (path.startsWith(prefix) ? path.slice(prefix.length) : null);
}
