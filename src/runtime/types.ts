// The sandbox contract (../shared/DESIGN.md, "Runtime"). Tools only ever talk to this interface.
// The runtime layer's parts: this interface with paths.ts, search-types.ts and object-id.ts at the top; workspace/,
// the one identity of a sandbox above its live runtime (mutation queue, changed paths, watch batches, the fallbacks
// for runtimes without scan or search); embedded/, just-bash in a Web Worker with its dev box (shell/, node/, npm/,
// git/); webcontainer/, the StackBlitz WebContainer adapter (boot, the jsh/ session, commands, search); search/,
// the runtime-side search both runtimes and the Workspace reach; exec/, what both runtimes share about a command's
// output; zip/, the workspace zip format; cross-origin-isolation.ts, the page's COOP/COEP in one place.

import type { EntryType } from './entry-type';
import type { ObjectId } from './object-id';
import type { SearchRequest, SearchResult } from './search-types';

export type { EntryType };

export type ExecOptions = {
  cwd?: string;
  env?: Record<string, string>;
  signal?: AbortSignal;
  timeoutMs?: number;
  onOutput?: (chunk: string) => void;
};

export type ExecResult = { output: string; exitCode: number | null };

/** A file for `Runtime.importFiles` and `Runtime.applyChanges`: a workdir-relative path and its bytes. */
export type WorkspaceFile = { path: string; data: Uint8Array };

/**
 * One workspace entry as `Runtime.scan` reports it (workdir-relative path). A file carries its git blob id and size,
 * and its bytes when asked for: the bytes that were hashed, read at one moment.
 */
export type ScannedEntry =
  | { path: string; kind: 'file'; size: number; id: ObjectId; data?: Uint8Array }
  | { path: string; kind: 'dir' }
  | { path: string; kind: 'missing' };

export type ScanOptions = {
  /** Folder names left out wherever they are (e.g. node_modules): nothing inside one is reported. */
  excludeNames?: readonly string[];
  /** Also hand back each file's bytes... */
  withData?: boolean;
  /** ...except for files with these ids (the caller has their bytes already). */
  knownIds?: readonly ObjectId[];
};

/** Changes `Runtime.applyChanges` makes to the workspace, in this order: removals, folders, writes. */
export type WorkspaceChanges = {
  /** Files (or links) to delete; a missing one is no error. */
  removeFiles: string[];
  /** Folders to delete when nothing is left in them (deepest first); a folder that still holds anything stays. */
  removeFolders: string[];
  /** Folders to create, with their parents (empty folders included). */
  makeFolders: string[];
  /** Files to write, parent folders created; a folder in the way is removed first. */
  writeFiles: WorkspaceFile[];
};

export interface Runtime {
  readonly kind: 'webcontainer' | 'embedded';
  readonly workdir: string; // absolute, e.g. /home/project
  readFile(path: string): Promise<Uint8Array>;
  writeFile(path: string, data: Uint8Array | string): Promise<void>; // creates parent folders
  readdir(path: string): Promise<{ name: string; type: EntryType }[]>;
  stat(path: string): Promise<{ type: EntryType; size: number } | null>;
  mkdir(path: string): Promise<void>; // recursive
  rm(path: string, opts?: { recursive?: boolean }): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  exec(command: string, opts?: ExecOptions): Promise<ExecResult>;
  exportZip(opts?: { exclude?: string[] }): Promise<Uint8Array>; // the workspace, for snapshots and downloads
  importZip(zip: Uint8Array): Promise<void>;
  /**
   * Optional: replaces the workspace with already unpacked files (workdir-relative paths; parent folders are
   * created), with the same checks and the same result as importZip of their zip, minus packing and unpacking it.
   * The runtime may take ownership of the buffers: the caller must not change them afterwards.
   */
  importFiles?(files: { path: string; data: Uint8Array }[]): Promise<void>;
  /**
   * Optional: a workspace replacement put together while its files are still being produced (a repo zip being
   * inflated). Nothing in the workspace changes until commit; discard drops what was staged.
   */
  beginImport?(): StagedImport;
  /**
   * Optional: for each workdir-relative path ('' for the workdir), the entry there and, for a folder, every entry
   * below it (excluded folders left out; links to folders skipped, links to files read as the file). Files are
   * hashed where they are, so nothing but ids crosses over unless `withData` asks for the bytes.
   */
  scan?(paths: string[], options?: ScanOptions): Promise<ScannedEntry[]>;
  /**
   * Optional: removes, creates and writes exactly what `changes` lists and touches nothing else (a restore that keeps
   * node_modules); watchers hear about every path changed.
   */
  applyChanges?(changes: WorkspaceChanges): Promise<void>;
  /** Optional: delivers every change made so far to the watchers before it resolves. */
  flushChanges?(): Promise<void>;
  /**
   * Reports changed workdir-relative paths in batches. A command's changes are reported before its exec resolves
   * when the runtime can (the embedded one does); '' stands for the whole workspace.
   */
  watch(listener: (paths: string[]) => void): () => void;
  /** Optional: the canonical path of `path` after following symlinks, for per-file mutation queues. */
  realpath?(path: string): Promise<string>;
  /**
   * Optional: tells the runtime which tree its workspace was imported from (null: it started empty). A runtime with
   * git makes that tree the first commit of a repository when git first runs in a workspace that has none, so `git
   * diff` shows what changed since the import. Call it after each import or restore; resolves once it is set.
   */
  setBaseline?(baseline: WorkspaceBaseline | null): Promise<void>;
  /** Optional: a search (walk with ignore rules, match, limits) run where the files are, in one round trip. */
  search?(request: SearchRequest): Promise<SearchResult>;
  /**
   * Optional: replaces what the absolute folder `root`, outside the workdir, holds with `files` (paths relative to it),
   * read-only from then on: the agent can read them and run them, and any write there fails saying so. Being outside
   * the workdir they are in no scan, export, snapshot or watch batch.
   */
  placeReadOnly?(root: string, files: WorkspaceFile[]): Promise<void>;
  /**
   * Optional: a copy-on-write copy of the workspace as it is now, in milliseconds and with no bytes copied (a worker
   * subagent's tree). The fork and the live workspace never see each other's later changes.
   */
  fork?(options?: ForkOptions): Promise<RuntimeFork>;
  dispose(): Promise<void>;
}

/** Where a fork's shell starts: the parent's working folder and environment. */
export type ForkOptions = { cwd?: string; env?: Record<string, string> };

/** A file the fork created, changed or removed since it was made: its bytes at the fork point and now (null: absent). */
export type ForkChange = { path: string; base: Uint8Array | null; fork: Uint8Array | null };

/** A copy-on-write copy of a workspace (Runtime.fork). */
export interface RuntimeFork {
  /** The fork as a runtime of its own (same workdir): reads see the workspace as it was at the fork, writes stay here. */
  readonly runtime: Runtime;
  /** The files (workdir-relative; links as their target text) that differ between the fork point and the fork now. */
  changes(): Promise<ForkChange[]>;
  /** Drops the fork; its runtime is disposed with it. */
  dispose(): Promise<void>;
}

/** The tree a workspace was imported from (Runtime.setBaseline). */
/**
 * One imported file. `blobId` is its git blob id where the snapshot store already knows it: git takes it as given and
 * hashes nothing (the store keyed the bytes by that id when it stored them).
 */
export type BaselineFile = { path: string; data: Uint8Array; blobId?: string };

export interface WorkspaceBaseline {
  /** What was imported, e.g. the zip's file name: the first commit's message is "Imported <name>". */
  name: string;
  /** The imported files (workdir-relative paths); asked for only when the repository is first made. */
  files(): Promise<BaselineFile[]>;
  /** The repository it came from (e.g. https://github.com/OWNER/REPO): the repository's `remote.origin.url`. */
  remoteUrl?: string;
}

/**
 * `git push` in a runtime's shell, as the page receives it: the work committed since the imported commit, to be sent
 * to the host the workspace came from the way "Open pull request" sends it (there is no git protocol from a tab).
 */
export interface GitPushRequest {
  /** The pushed remote's URL, as the repository has it. */
  remoteUrl: string;
  /** The branch named on the command line (`git push origin NAME`, `HEAD:NAME`, or the current branch when it is
   * not the imported one); absent: the page's own choice (the session's earlier push, else conch/<title>). */
  branch?: string;
  /** What was pushed, as typed (HEAD, a branch), for the output. */
  source: string;
  /** The commit message for the host: the pushed commits' messages. */
  message: string;
  /** The files that differ between the imported commit and the pushed one (workdir-relative). */
  changes: GitPushChange[];
}

export type GitPushChange =
  | { path: string; kind: 'added' | 'modified'; data: Uint8Array; executable?: boolean }
  | { path: string; kind: 'added' | 'modified'; symlinkTarget: string }
  | { path: string; kind: 'deleted' };

/** The page's answer: what it pushed (the branch, lines for the shell's output), or why not, for the person and the model. */
export type GitPushAnswer = { pushed: true; branch: string; lines: string[] } | { pushed: false; message: string };

/** The page's side of `git push`: asks the person (always), then sends; `signal` aborts when the command is stopped. */
export type GitPushHost = (request: GitPushRequest, signal?: AbortSignal) => Promise<GitPushAnswer>;

/** A staged workspace replacement (Runtime.beginImport). */
export interface StagedImport {
  /**
   * Adds files (workdir-relative paths, parent folders created). The runtime may take ownership of the buffers: the
   * caller must not change them afterwards. A bad path or a file/folder clash is reported by commit.
   */
  add(files: { path: string; data: Uint8Array }[]): void;
  /** Replaces the workspace with every file added (replace, not merge), like importFiles; rejects, changing nothing, if any was unusable. */
  commit(): Promise<void>;
  /** Drops the staged files; the workspace stays as it was. Safe to call after commit (then it does nothing). */
  discard(): void;
}
