// The typed messages between the page (client.ts) and the worker hosting just-bash (worker.ts).

import type { EmbeddedRuntimeOptions } from './in-process';
import type { GitPushAnswer, GitPushRequest, Runtime } from '../types';

/** Runtime methods forwarded as plain request/response calls. */
export type ForwardedMethod =
  | 'readFile'
  | 'writeFile'
  | 'readdir'
  | 'stat'
  | 'mkdir'
  | 'rm'
  | 'rename'
  | 'realpath'
  | 'exportZip'
  | 'importZip'
  | 'importFiles'
  | 'search'
  | 'scan'
  | 'flushChanges'
  | 'placeReadOnly';

type RuntimeMethods = Required<Pick<Runtime, ForwardedMethod>>;
export type MethodArgs<M extends ForwardedMethod> = Parameters<RuntimeMethods[M]>;
export type MethodResult<M extends ForwardedMethod> = Awaited<ReturnType<RuntimeMethods[M]>>;

/** Slots in the shared stop table: exec `id` is stopped when slot `id % STOP_SLOTS` holds `id`. */
export const STOP_SLOTS = 64;

/** What the worker's npm asks the page for (the registry setting, the tarball cache in the page's storage). */
export type NpmHostCall = { op: 'registry' } | { op: 'cache-get'; key: string } | { op: 'cache-put'; key: string; data: Uint8Array };

/** `fork`, on a request: the fork (by the number its fork message gave it) the request is for, rather than the live runtime. */
export type CallRequest = { [M in ForwardedMethod]: { type: 'call'; id: number; method: M; args: MethodArgs<M>; fork?: number } }[ForwardedMethod];

export type ToWorker =
  /** npmHost: the page answers npm-host-call messages (else npm uses the public registry and a memory cache);
   * gitPushHost: the page answers git-push messages (else git push says there is no network). */
  | { type: 'init'; options: Omit<EmbeddedRuntimeOptions, 'npm' | 'gitPush'>; stopTable?: SharedArrayBuffer; npmHost?: boolean; gitPushHost?: boolean }
  | CallRequest
  | { type: 'exec'; id: number; command: string; cwd?: string; env?: Record<string, string>; timeoutMs?: number; stream: boolean; fork?: number }
  /** Runtime.fork: a fork of the live runtime, named `fork` by the page from then on; fork-changes and fork-dispose follow. */
  | { type: 'fork'; id: number; fork: number; cwd?: string; env?: Record<string, string> }
  | { type: 'fork-changes'; id: number; fork: number }
  | { type: 'fork-dispose'; id: number; fork: number }
  | { type: 'abort'; id: number }
  /** Runtime.importFiles, its files packed end to end into one transferred buffer (file i ends at ends[i]). */
  | { type: 'import-files'; id: number; paths: string[]; ends: Uint32Array; bytes: ArrayBuffer }
  /** Runtime.beginImport: a staged import named `stage`; its batches are packed like import-files; commit answers `id`. */
  | { type: 'stage-begin'; stage: number }
  | { type: 'stage-add'; stage: number; paths: string[]; ends: Uint32Array; bytes: ArrayBuffer }
  | { type: 'stage-commit'; id: number; stage: number }
  | { type: 'stage-discard'; stage: number }
  /** Runtime.applyChanges, the files to write packed like import-files. */
  | {
      type: 'apply-changes';
      id: number;
      removeFiles: string[];
      removeFolders: string[];
      makeFolders: string[];
      paths: string[];
      ends: Uint32Array;
      bytes: ArrayBuffer;
      fork?: number;
    }
  /** Copies of everything at and below `paths`, for the page's rollback copy (EmbeddedRuntime.copyEntries). */
  | { type: 'copy-entries'; id: number; paths: string[] }
  | { type: 'watch'; enabled: boolean }
  /** Runtime.setBaseline: its name and remote only (null: no baseline); the files stay in the page until the worker asks. */
  /** node's browser engine: a port to the page's sandbox frame (its relay), or why there is none (`port` absent). */
  | { type: 'node-sandbox'; port?: MessagePort; reason: string }
  | { type: 'baseline'; name: string | null; remoteUrl?: string }
  /** The answer to baseline-files-needed: the baseline's files, packed like import-files, with their blob ids when known (one per path). */
  | { type: 'baseline-files'; request: number; paths: string[]; ends: Uint32Array; bytes: ArrayBuffer; blobIds?: string[] }
  | { type: 'baseline-files-failed'; request: number; message: string }
  | { type: 'npm-host-reply'; request: number; value: string | Uint8Array | undefined }
  | { type: 'npm-host-failed'; request: number; message: string }
  | { type: 'git-push-reply'; request: number; answer: GitPushAnswer };

export type FromWorker =
  | { type: 'ready'; workdir: string }
  | { type: 'init-failed'; message: string }
  | { type: 'result'; id: number; value: unknown }
  | { type: 'error'; id: number; message: string }
  | { type: 'output'; id: number; chunk: string }
  | { type: 'changes'; paths: string[]; fork?: number }
  /** git is about to make the repository of the baseline: the page sends its files (baseline-files). */
  | { type: 'baseline-files-needed'; request: number }
  | { type: 'npm-host-call'; request: number; call: NpmHostCall }
  /** `git push` ran in the shell: the page asks the person and sends (git-push-reply); -stopped: the command was stopped. */
  | { type: 'git-push'; request: number; push: GitPushRequest }
  | { type: 'git-push-stopped'; request: number };
