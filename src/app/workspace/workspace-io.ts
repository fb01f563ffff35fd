// Moving a workspace in and out of the sandbox: importing a repo (zip or picked folder) with the store's safety
// limits, the workspace as a zip download, and what changed since the session's baseline (diff, patch, revert).
import type { ObjectId } from '../../runtime/object-id';
import type { Runtime, StagedImport } from '../../runtime/types';
import {
  diffTrees,
  diffWorkspaces,
  downloadName,
  formatPatch,
  readFolderFiles,
  readRepoZip,
  revertChange,
  SNAPSHOT_EXCLUDE,
  HISTORY_FOLDERS,
  unzipToMap,
  zipFromFiles,
  ImportCancelledError,
  type FileChange,
  type FileMap,
  type RepoOrigin,
  type TreeSource,
  type ZipImportOptions,
  type ZipImportProgress,
  type ZipImportResult,
} from '../../store';

/**
 * A repository the person chose: a .zip file's bytes, the files of a picked folder, or the files fetched from a host
 * (paths as the repository has them, and where they came from).
 */
export type RepoSource =
  | { kind: 'zip'; name: string; data: Uint8Array }
  | { kind: 'folder'; name: string; entries: { path: string; data: Uint8Array }[] }
  // A folder opened for editing: its paths are the disk's, so a lone top folder is never taken off.
  | { kind: 'local-folder'; name: string; entries: { path: string; data: Uint8Array }[] }
  | { kind: 'host'; name: string; entries: { path: string; data: Uint8Array }[]; origin: RepoOrigin };

export type RepoImport = {
  files: number;
  bytes: number;
  skipped: ZipImportResult['skipped'];
  strippedPrefix?: string;
  /** The imported files: the session's baseline. */
  contents: FileMap;
  /** The imported files as a workspace zip (built when first asked for). */
  readonly zip: Uint8Array;
};

export type RepoImportOptions = {
  onProgress?: (progress: ZipImportProgress) => void;
  signal?: AbortSignal;
  limits?: Pick<ZipImportOptions, 'maxFiles' | 'maxTotalBytes' | 'maxRatio'>;
};

const folderPatterns = (names: readonly string[]) => names.flatMap((name) => [`${name}/**`, `**/${name}/**`]);
const snapshotExclude = folderPatterns(SNAPSHOT_EXCLUDE);
const projectExclude = folderPatterns([...SNAPSHOT_EXCLUDE, ...HISTORY_FOLDERS]);

/** Whether downloads and the Changes tab take in `.git` too (left out by default). */
export type HistoryOption = { includeGit?: boolean };

/**
 * Checks and unpacks a repo, then replaces the runtime's workspace with it. Any failure (unsafe entry, limits,
 * damage, cancel) throws before the workspace is touched.
 */
export async function importRepo(
  runtime: Pick<Runtime, 'importZip' | 'importFiles' | 'beginImport'>,
  source: RepoSource,
  options: RepoImportOptions = {},
): Promise<RepoImport> {
  if (source.kind === 'zip' && runtime.beginImport) return importZipStaged(runtime.beginImport(), source.data, options);
  const result =
    source.kind === 'zip'
      ? await readRepoZip(source.data, { ...options.limits, onProgress: options.onProgress, signal: options.signal })
      : readFolderFiles(source.entries, { ...options.limits, keepTopFolder: source.kind === 'host' || source.kind === 'local-folder' });
  if (options.signal?.aborted) throw new ImportCancelledError();
  if (runtime.importFiles) await runtime.importFiles(Array.from(result.files, ([path, data]) => ({ path, data })));
  else await runtime.importZip(zipFromFiles(result.files, { level: 0, crcs: result.declaredCrcs }));
  return summary(result);
}

// The sandbox stages each batch of files while the next is inflated, so little is left to do once the last entry
// passed its checks; the staged files only become the workspace at commit, after everything succeeded.
async function importZipStaged(staged: StagedImport, data: Uint8Array, options: RepoImportOptions): Promise<RepoImport> {
  try {
    const result = await readRepoZip(data, {
      ...options.limits,
      onProgress: options.onProgress,
      signal: options.signal,
      onFiles: (batch) => staged.add(batch),
    });
    if (options.signal?.aborted) throw new ImportCancelledError();
    await staged.commit();
    return summary(result);
  } finally {
    staged.discard(); // after a commit this does nothing; after any failure it drops the staged files
  }
}

function summary(result: ZipImportResult): RepoImport {
  let zip: Uint8Array | undefined;
  return {
    files: result.files.size,
    bytes: result.totalBytes,
    skipped: result.skipped,
    strippedPrefix: result.strippedPrefix,
    contents: result.files,
    // Stored, not deflated: a large repo deflated again would cost seconds.
    get zip() {
      zip ??= zipFromFiles(result.files, { level: 0, crcs: result.declaredCrcs });
      return zip;
    },
  };
}

/**
 * The workspace as a zip for download: every file, binaries included; node_modules left out (reinstallable), and
 * .git unless `includeGit`.
 */
export function exportWorkspaceZip(runtime: Pick<Runtime, 'exportZip'>, options: HistoryOption = {}): Promise<Uint8Array> {
  return runtime.exportZip({ exclude: options.includeGit ? snapshotExclude : projectExclude });
}

/** The download name of the workspace zip of a session titled `title`: `<slug>-<YYYY-MM-DD>.zip`. */
export function workspaceZipName(title: string, date: Date = new Date()): string {
  return downloadName(title, '.zip', 'workspace', date);
}

/** The download name of the Changes tab's patch: `<slug>-<YYYY-MM-DD>.patch`. */
export function patchName(title: string, date: Date = new Date()): string {
  return downloadName(title, '.patch', 'workspace', date);
}

/** Everything that differs between the baseline and the workspace now, sorted by path (.git only if `includeGit`). */
export async function workspaceChanges(runtime: Pick<Runtime, 'exportZip'>, baseline: FileMap, options: HistoryOption = {}): Promise<FileChange[]> {
  const current = await unzipToMap(await runtime.exportZip({ exclude: options.includeGit ? snapshotExclude : projectExclude }));
  return diffWorkspaces(options.includeGit ? baseline : withoutHistory(baseline), current);
}

// A baseline imported with its own .git has it in the stored files too.
function withoutHistory(files: FileMap): FileMap {
  const inHistory = (path: string) => path.split('/').some((segment) => HISTORY_FOLDERS.includes(segment));
  return new Map([...files].filter(([path]) => !inHistory(path)));
}

/**
 * What differs between tree `baseline` (undefined: nothing) and tree `current`, reading only the files that differ;
 * with the baseline's versions of those files, for reverts.
 */
export async function treeChanges(
  source: TreeSource & { blobs(ids: ObjectId[]): Promise<Map<ObjectId, Uint8Array>> },
  baseline: ObjectId | undefined,
  current: ObjectId,
  options: HistoryOption = {},
): Promise<{ changes: FileChange[]; baseline: FileMap }> {
  const diff = await diffTrees(source, baseline, current);
  const before = new Map<string, ObjectId>();
  const after = new Map<string, ObjectId>();
  // A baseline from before content addressing may hold node_modules; the workspace's snapshots never do. Snapshots
  // keep .git (a shared session keeps its history), which only shows when the person asks for it.
  const left = options.includeGit ? SNAPSHOT_EXCLUDE : [...SNAPSHOT_EXCLUDE, ...HISTORY_FOLDERS];
  const kept = (path: string) => !path.split('/').some((name) => left.includes(name));
  for (const file of diff.removeFiles) if (kept(file.path)) before.set(file.path, file.id);
  for (const file of diff.writeFiles) {
    if (!kept(file.path)) continue;
    after.set(file.path, file.id);
    if (file.was) before.set(file.path, file.was.id);
  }
  const bytes = await source.blobs([...before.values(), ...after.values()]);
  const files = (ids: Map<string, ObjectId>): FileMap => new Map([...ids].map(([path, id]) => [path, bytes.get(id)!]));
  const old = files(before);
  return { changes: diffWorkspaces(old, files(after)), baseline: old };
}

/** The changes as a patch `git apply` accepts on the original repo. */
export function changesPatch(changes: FileChange[]): string {
  return formatPatch(changes);
}

/** Puts one file back as the baseline has it (an added file is deleted). */
export function revertFile(runtime: Pick<Runtime, 'workdir' | 'writeFile' | 'rm'>, change: FileChange, baseline: FileMap): Promise<void> {
  return revertChange(runtime, change, baseline);
}
