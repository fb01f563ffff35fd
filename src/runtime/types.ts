// The sandbox contract (../shared/DESIGN.md, "Runtime"). Tools only ever talk to this interface.

import type { EntryType } from './entry-type';
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
  dispose(): Promise<void>;
}

/** The tree a workspace was imported from (Runtime.setBaseline). */
export interface WorkspaceBaseline {
  /** What was imported, e.g. the zip's file name: the first commit's message is "Imported <name>". */
  name: string;
  /** The imported files (workdir-relative paths); asked for only when the repository is first made. */
  files(): Promise<{ path: string; data: Uint8Array }[]>;
}

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
