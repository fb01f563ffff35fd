// The messages between the `node` command (host: the thread running just-bash) and its engine worker (QuickJS in a
// nested worker), and the layout of the shared buffers that let the engine block on the host's file system.

/** How the program to run is given. */
export type EngineEntry =
  | { kind: 'file'; path: string }
  | { kind: 'eval'; code: string; print: boolean; module: boolean }
  | { kind: 'test-file'; path: string };

/** One `node` process: everything the guest needs to start, as plain data. */
export type EngineJob = {
  entry: EngineEntry;
  /** process.argv: ['/usr/local/bin/node', script?, ...args] */
  argv: string[];
  execArgv: string[];
  cwd: string;
  env: Record<string, string>;
  stdin: string;
  /** --test-only: top-level tests without `only` are skipped. */
  testOnly: boolean;
  /** Numbering of top-level TAP lines continues after this (node --test runs several files into one report). */
  testNumberOffset: number;
  memoryLimitBytes: number;
  /**
   * How ES modules load: 'native', through QuickJS's own module loader (resolveModule/loadModule); 'transform', as
   * CommonJS transformed by the host (the browser engine's eval has no loader hook: see module-transform/).
   */
  modules: 'native' | 'transform';
};

/** The counts a test file reports for `node --test`'s summary. */
export type TestCounts = {
  tests: number;
  suites: number;
  pass: number;
  fail: number;
  cancelled: number;
  skipped: number;
  todo: number;
  /** Top-level TAP lines printed (the next file's numbering continues after them). */
  topLevel: number;
};

/** A file-system request from the guest, answered through the shared reply buffer. */
export type FsRequest = { op: string; args: unknown[]; data?: Uint8Array };

/** The guest environment: its core script and the packages it compiles on demand (see build/node-guest-bundle.ts). */
export type GuestSources = { core: string; packages: Record<string, string> };

export type HostToEngine =
  | { type: 'init'; wasm: WebAssembly.Module; guest: GuestSources; maxStackBytes: number }
  | { type: 'run'; id: number; job: EngineJob; reply: SharedArrayBuffer; control: SharedArrayBuffer };

export type EngineToHost =
  | { type: 'ready' }
  | { type: 'init-failed'; message: string }
  | { type: 'output'; id: number; chunks: [fd: 1 | 2, text: string][] }
  | { type: 'fs'; id: number; request: FsRequest }
  /** The reply did not fit: here is a larger buffer, write the pending reply into it. */
  | { type: 'fs-grow'; id: number; reply: SharedArrayBuffer }
  /** After a job: QuickJS could not be freed, so this worker must not run another job. */
  | { type: 'retire' }
  /** `broken`: the engine cannot run another job (QuickJS was left in a bad state); replace the worker. */
  | { type: 'done'; id: number; exitCode: number; heapBytes: number; broken: boolean; tests?: TestCounts };

// ---- the reply buffer: an Int32 header, then the payload bytes ----

/** Header slots (Int32): the state the engine waits on, the payload length, and what the payload is. */
export const REPLY_STATE = 0;
export const REPLY_LENGTH = 1;
export const REPLY_KIND = 2;
export const REPLY_HEADER_BYTES = 16;
export const REPLY_INITIAL_BYTES = 1 << 20;

export const enum ReplyState {
  Waiting = 0,
  Ready = 1,
}

export const enum ReplyKind {
  /** UTF-8 JSON: the call's result. */
  Json = 0,
  /** Raw bytes (a file's content). */
  Bytes = 1,
  /** UTF-8 JSON `{ code, message }`: the call failed. */
  Error = 2,
  /** Did not fit: REPLY_LENGTH holds the bytes needed; the engine sends a larger buffer (fs-grow). */
  TooBig = 3,
}

// ---- the control buffer (Int32 slots) ----

/** Non-zero once the host asks the program to stop (timeout or abort). */
export const CONTROL_STOP = 0;
/** The engine sleeps on this slot between timers; the host notifies it to wake the engine for a stop or an event. */
export const CONTROL_WAKE = 1;
/** Counts the host's events for the guest (a child process ended); the guest polls when it changes. */
export const CONTROL_EVENTS = 2;
export const CONTROL_BYTES = 12;
