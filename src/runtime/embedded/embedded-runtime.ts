// The embedded runtime's public surface: how it is created, and what it offers beyond a Runtime (in-process.ts
// implements it).

import type { ExecResult, ForkOptions, GitPushHost, Runtime, RuntimeFork, ScannedEntry, ScanOptions, StagedImport, WorkspaceBaseline, WorkspaceChanges } from '../types';
import type { SearchRequest, SearchResult } from '../search-types';
import type { EmbeddedExecOptions } from './bash-session';
import type { NpmEnvironment } from './npm/environment';
import type { CopiedEntry } from '../workspace/scan';
import type { WorkspaceFile } from '../zip/workspace-zip';
import type { NodeEngineChoice } from './node/engine-choice';

export type EmbeddedRuntimeOptions = {
  /** Initial files: workdir-relative (or absolute) path -> content. */
  files?: Record<string, string | Uint8Array>;
  /** Absolute workspace folder; default /home/project. */
  workdir?: string;
  /** npm's registry and tarball cache; default: the public registry and a cache in memory. */
  npm?: NpmEnvironment;
  /** The page's side of `git push` (it asks the person, then sends); without it, push says there is no network. */
  gitPush?: GitPushHost;
  /** Which engine `node` runs on (the browser's own once a sandbox frame is handed over); default: QuickJS. */
  nodeEngines?: NodeEngineChoice;
};

/** The embedded runtime's own surface: a Runtime whose exec also takes a cross-thread stop flag. */
export interface EmbeddedRuntime extends Runtime {
  readonly kind: 'embedded';
  exec(command: string, opts?: EmbeddedExecOptions): Promise<ExecResult>;
  realpath(path: string): Promise<string>;
  importFiles(files: WorkspaceFile[]): Promise<void>;
  beginImport(): StagedImport;
  setBaseline(baseline: WorkspaceBaseline | null): Promise<void>;
  search(request: SearchRequest): Promise<SearchResult>;
  scan(paths: string[], options?: ScanOptions): Promise<ScannedEntry[]>;
  applyChanges(changes: WorkspaceChanges): Promise<void>;
  flushChanges(): Promise<void>;
  placeReadOnly(root: string, files: WorkspaceFile[]): Promise<void>;
  /** Copies of everything at and below `paths` (node_modules included), read before anything else runs. */
  copyEntries(paths: string[]): Promise<CopiedEntry[]>;
  /** A copy-on-write fork (its runtime an EmbeddedRuntime too, that cannot fork again); its shell starts in the
   * parent's directory unless `options.cwd` says otherwise. */
  fork(options?: ForkOptions): Promise<EmbeddedRuntimeFork>;
}

export interface EmbeddedRuntimeFork extends RuntimeFork {
  readonly runtime: EmbeddedRuntime;
}
