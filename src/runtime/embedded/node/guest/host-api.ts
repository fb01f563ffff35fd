// What the engine gives the guest (`globalThis.__conchHost`) and what the guest gives the engine
// (`globalThis.__conchGuest`). The guest is the Node environment bundled into QuickJS; the engine is the worker
// around it. Only plain values cross: strings, numbers and ArrayBuffers.

export interface EngineHost {
  /** Appends to stdout (1) or stderr (2). */
  write(fd: number, text: string): void;
  /** A synchronous file-system call on the workspace: JSON text of the result, or the bytes of a file. Throws an Error with `code`. */
  fs(op: string, argsJson: string, data?: ArrayBuffer): string | ArrayBuffer;
  /** The bundled CommonJS body of a package providing a core module (buffer, events, util, ...). */
  packageSource(name: string): string;
  /** Evaluates a script in the global scope, its stack frames naming `filename`. */
  compile(code: string, filename: string): unknown;
  encodeUtf8(text: string): ArrayBuffer;
  decodeUtf8(bytes: ArrayBuffer): string;
  /** Milliseconds since the engine started, with sub-millisecond precision. */
  now(): number;
  randomBytes(count: number): ArrayBuffer;
  /** md5, sha1, sha256, sha512 of the bytes. */
  hash(algorithm: string, data: ArrayBuffer): ArrayBuffer;
  /** A WHATWG URL's parts as JSON, or '' when the input is not a valid URL. */
  parseUrl(input: string, base: string | undefined): string;
  /** TypeScript with its types removed, lines kept. */
  stripTypes(code: string, filename: string): string;
  /** Ends the process now; never returns. */
  exit(code: number): never;
  /** node --test: this file's counts for the summary. */
  reportTests(countsJson: string): void;
  /** A counter the host bumps for each event it has for the guest (a child process ended): poll when it changes. */
  hostEvents(): number;
  /** Bytes of memory the engine uses. */
  memoryUsage(): number;
}

export interface GuestHooks {
  /** Starts the job (JSON of EngineJob): runs the entry synchronously, or starts loading it as a module. */
  start(jobJson: string): void;
  /** ES module resolution: the module name (file URL or node:builtin) `request` names from `base`. */
  resolveModule(base: string, request: string): string;
  /** ES module source for a name resolveModule returned. */
  loadModule(name: string): string;
  /** Milliseconds until the next timer is due, 0 when one is due now, -1 when none keeps the process alive (as text). */
  nextTimer(): string;
  /** Runs the timers that are due. */
  runTimers(): void;
  /** The loop is empty: emits `beforeExit` (and lets the test runner finish); 'true' when that scheduled more work. */
  beforeExit(): string;
  /** Emits `exit` and returns the exit code (as text). */
  exit(): string;
  /** An error the engine caught outside any guest handler: print it as Node does and return the exit code. */
  reportFatal(error: unknown): number;
}
