// spawnSync, execSync and execFileSync: the guest blocks on the host's answer (the engine waits on the same shared
// buffer as for fs) while the child runs in the shell, `node` children in engine workers of their own.

import type { ChildOutcome } from '../../subprocess/messages';
import { host } from '../host';
import { bufferModule } from '../modules/packages';
import { commandFailed, spawnError, syncFailure } from './child-errors';
import { DEFAULT_MAX_BUFFER, prepare, splitArgs, type ChildContext, type Prepared, type SpawnOptions, type Stdio } from './spawn-options';
import { forgetListings } from '../modules/package-listings';

type Output = string | import('buffer').Buffer | null;
export type SyncResult = {
  pid: number;
  output: [null, Output, Output] | null;
  stdout: Output;
  stderr: Output;
  status: number | null;
  signal: string | null;
  error?: Error;
};

const PIPED: Stdio = ['pipe', 'pipe', 'pipe'];

/** The three sync forms over one context. */
export function createSyncForms(context: ChildContext) {
  const Buffer = () => bufferModule().Buffer;

  const run = (prepared: Prepared, options: SpawnOptions): SyncResult => {
    const { spec, stdio, file, spawnargs } = prepared;
    const syscall = `spawnSync ${spec.args === null ? '/bin/sh' : file}`;
    if (prepared.cwdMissing) return failedStart(spawnError('spawnSync', spec.args === null ? '/bin/sh' : file, spawnargs));
    if (options.input !== undefined && stdio[0] === 'pipe') spec.stdin = inputText(options.input);
    const outcome = JSON.parse(host.fs('proc.run', JSON.stringify([spec])) as string) as ChildOutcome;
    forgetListings(); // the child may have installed or built what the program requires next
    if (outcome.error?.code === 'ENOENT') return failedStart(spawnError('spawnSync', file, spawnargs));
    const encoding = typeof options.encoding === 'string' && options.encoding !== 'buffer' ? (options.encoding as BufferEncoding) : undefined;
    const shape = (text: string, mode: Stdio[number], fd: 1 | 2): Output => {
      if (mode === 'inherit') host.write(fd, text);
      if (mode !== 'pipe') return null;
      const bytes = Buffer().from(text);
      return encoding ? bytes.toString(encoding) : bytes;
    };
    const stdout = shape(outcome.stdout, stdio[1], 1);
    const stderr = shape(outcome.stderr, stdio[2], 2);
    const result: SyncResult = { pid: 0, output: [null, stdout, stderr], stdout, stderr, status: outcome.exitCode, signal: outcome.signal };
    const error = syncFailure(outcome, spec.timeoutMs > 0 && outcome.signal !== null, syscall);
    if (error) result.error = Object.assign(error, { spawnargs: spawnargs.slice(1) });
    return result;
  };

  const failedStart = (error: Error): SyncResult => ({ pid: 0, output: null, stdout: null, stderr: null, status: null, signal: null, error });

  /** execSync and execFileSync: the output, or Node's error (status, stdout, stderr) when the child failed. */
  const checked = (prepared: Prepared, options: SpawnOptions, cmd: string): Output => {
    // Unless stdio is given, the child's stderr goes to the parent's as well as into the result.
    const inheritStderr = options.stdio == null;
    const result = run(prepared, options);
    if (inheritStderr && result.stderr) host.write(2, result.stderr.toString());
    if (result.error) throw Object.assign(result.error, fieldsOf(result));
    if (result.status !== 0) throw commandFailed(cmd, result.stderr?.toString() ?? '', fieldsOf(result));
    return result.stdout;
  };

  const fieldsOf = (result: SyncResult) => ({ status: result.status, signal: result.signal, output: result.output, pid: result.pid, stdout: result.stdout, stderr: result.stderr });

  return {
    spawnSync(file: unknown, args?: unknown, options?: unknown): SyncResult {
      const split = splitArgs(args, options);
      return run(prepare(context, file, split.args, split.options, { stdio: PIPED, maxBuffer: DEFAULT_MAX_BUFFER }), split.options);
    },
    execSync(command: unknown, options?: unknown): Output {
      const opts = splitArgs(undefined, options).options;
      const prepared = prepare(context, command, [], { ...opts, shell: opts.shell ?? true }, { stdio: PIPED, maxBuffer: DEFAULT_MAX_BUFFER });
      return checked(prepared, opts, String(command));
    },
    execFileSync(file: unknown, args?: unknown, options?: unknown): Output {
      const split = splitArgs(args, options);
      const prepared = prepare(context, file, split.args, split.options, { stdio: PIPED, maxBuffer: DEFAULT_MAX_BUFFER });
      return checked(prepared, split.options, [String(file), ...split.args].join(' '));
    },
  };
}

function inputText(input: unknown): string {
  if (typeof input === 'string') return input;
  if (input instanceof Uint8Array) return bufferModule().Buffer.from(input).toString('utf8');
  if (ArrayBuffer.isView(input)) return bufferModule().Buffer.from(input.buffer, input.byteOffset, input.byteLength).toString('utf8');
  return String(input);
}
