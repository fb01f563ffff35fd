// The host's side of one `node` process's children: each child is a command line run in the same shell (just-bash's
// ctx.exec), so it sees the same file system and commands, `node` and `git` included; `node` given as a file (spawn,
// execFile, fork) runs directly on the node runner instead, with the same fs, env and cwd, its output streamed. A
// synchronous child (`proc.run`) is answered when it ends, while the guest blocks; an asynchronous one (`proc.spawn`)
// is answered at once, its output and end queued for `proc.poll` and the guest woken through `wake`. Children end
// with their parent: the parent's abort, stop or exit aborts every child still running.

import type { ResolvedCommandContext } from 'just-bash';
import type { FsAnswer } from '../engine/fs-service';
import type { FsRequest } from '../engine/protocol';
import type { ChildEvent, ChildOutcome, ChildSpec } from './messages';
import { checkSpec, signalName } from './spec-check';
import { shellQuote } from './shell-line';

/** just-bash's way to run a command line in the calling command's shell. */
export type ShellExec = NonNullable<ResolvedCommandContext['exec']>;

/** Runs `node ARGS` directly (not through the shell), handing over its output as it prints. */
export type NodeLauncher = (
  args: string[],
  options: { cwd: string; env: Record<string, string>; stdin: string; signal: AbortSignal },
  onOutput: (fd: 1 | 2, text: string) => void,
) => Promise<{ stdout: string; stderr: string; exitCode: number }>;

/** What a run's children need from the host around them. */
export type ChildHost = {
  exec: ShellExec | undefined;
  /** For an asynchronous `node` child, whose output is then streamed; without it every child goes through `exec`. */
  runNode: NodeLauncher | undefined;
  /** The parent's own stop (its caller's abort or timeout). */
  signal: AbortSignal | undefined;
  /** Wakes the guest's event loop: a child's end is queued for `proc.poll`. */
  wake(): void;
  /** A child is starting: have an engine worker ready for it if it is `node`. */
  warm(): void;
};

/** Children alive at once per process; past it spawn fails (a fork bomb should stop, not take the tab down). */
const MAX_LIVE_CHILDREN = 32;
let nextPid = 1000;

type Live = { controller: AbortController; killedWith?: string };

/** The children of one running `node` process. */
export class ChildProcesses {
  private readonly live = new Map<number, Live>();
  private readonly events: ChildEvent[] = [];
  private disposed = false;

  constructor(private readonly host: ChildHost) {}

  /** Answers one `proc.*` request; never throws. */
  async answer(request: FsRequest): Promise<FsAnswer> {
    switch (request.op) {
      case 'proc.spawn': {
        const spec = this.accept(request.args[0]);
        if (typeof spec === 'string') return invalid(spec);
        const pid = nextPid++;
        const child = this.start(pid, spec, (fd, text) => this.queue({ id: pid, kind: 'output', fd, text }));
        void child.then((outcome) => this.queue({ ...outcome, id: pid, kind: 'end' }));
        return { kind: 'json', value: { id: pid, pid } };
      }
      case 'proc.run': {
        const spec = this.accept(request.args[0]);
        if (typeof spec === 'string') return invalid(spec);
        return { kind: 'json', value: await this.start(nextPid++, spec) };
      }
      case 'proc.poll':
        return { kind: 'json', value: this.events.splice(0) };
      case 'proc.kill': {
        const child = this.live.get(Number(request.args[0]));
        const signal = signalName(request.args[1]);
        if (!child || !signal) return { kind: 'json', value: false };
        child.killedWith ??= signal;
        child.controller.abort();
        return { kind: 'json', value: true };
      }
      default:
        return { kind: 'error', code: 'ENOSYS', message: `ENOSYS: function not implemented, ${request.op}` };
    }
  }

  /** Ends every child still running (the parent has ended). */
  dispose(): void {
    this.disposed = true;
    for (const child of this.live.values()) {
      child.killedWith ??= 'SIGTERM';
      child.controller.abort();
    }
  }

  private queue(event: ChildEvent): void {
    this.events.push(event);
    this.host.wake();
  }

  private accept(value: unknown): ChildSpec | string {
    if (!this.host.exec) return 'this shell cannot run child processes';
    if (this.disposed) return 'the parent process has ended';
    if (this.live.size >= MAX_LIVE_CHILDREN) return `more than ${MAX_LIVE_CHILDREN} child processes at once`;
    return checkSpec(value);
  }

  /**
   * Runs the child to its end: its output, exit code or signal. A `node` child runs on the node runner, not through
   * the shell: `onOutput` (an asynchronous child) then takes its output as it prints.
   */
  private async start(pid: number, spec: ChildSpec, onOutput?: (fd: 1 | 2, text: string) => void): Promise<ChildOutcome> {
    const exec = this.host.exec!;
    const controller = new AbortController();
    const child: Live = { controller };
    this.live.set(pid, child);
    const parent = this.host.signal;
    const stopWithParent = () => {
      child.killedWith ??= 'SIGTERM';
      controller.abort();
    };
    if (parent?.aborted) stopWithParent();
    else parent?.addEventListener('abort', stopWithParent, { once: true });
    const timer = spec.timeoutMs > 0 ? setTimeout(() => {
      child.killedWith ??= spec.killSignal;
      controller.abort();
    }, spec.timeoutMs) : undefined;
    if (spec.args !== null && spec.command === 'node') this.host.warm();
    try {
      if (spec.args !== null && spec.command === 'node' && this.host.runNode) {
        if (onOutput) return await this.streamNode(spec, child, onOutput);
        const result = await this.host.runNode(spec.args, { cwd: spec.cwd, env: spec.env, stdin: spec.stdin, signal: controller.signal }, () => {});
        return outcomeOf(spec, result, child.killedWith);
      }
      const result = await exec(commandLine(spec), {
        cwd: spec.cwd,
        env: spec.env,
        replaceEnv: true,
        stdin: spec.stdin,
        signal: controller.signal,
        args: spec.args ?? [spec.command],
      });
      return outcomeOf(spec, result, child.killedWith);
    } catch (error) {
      return { stdout: '', stderr: `${error instanceof Error ? error.message : String(error)}\n`, exitCode: child.killedWith ? null : 1, signal: child.killedWith ?? null };
    } finally {
      clearTimeout(timer);
      parent?.removeEventListener('abort', stopWithParent);
      this.live.delete(pid);
    }
  }

  /** A `node` child run directly, its output streamed up to maxBuffer; past it the child is stopped (ENOBUFS). */
  private async streamNode(spec: ChildSpec, child: Live, onOutput: (fd: 1 | 2, text: string) => void): Promise<ChildOutcome> {
    const sent = { 1: 0, 2: 0 };
    let overflow: 'stdout' | 'stderr' | undefined;
    const options = { cwd: spec.cwd, env: spec.env, stdin: spec.stdin, signal: child.controller.signal };
    const result = await this.host.runNode!(spec.args!, options, (fd, text) => {
      if (overflow) return;
      const room = spec.maxBuffer - sent[fd];
      sent[fd] += text.length;
      onOutput(fd, text.length > room ? text.slice(0, room) : text);
      if (text.length > room) {
        overflow = fd === 1 ? 'stdout' : 'stderr';
        child.killedWith ??= spec.killSignal;
        child.controller.abort();
      }
    });
    if (overflow) return { stdout: '', stderr: '', exitCode: null, signal: spec.killSignal, error: { code: 'ENOBUFS', message: `${overflow} maxBuffer length exceeded` } };
    if (child.killedWith) return { stdout: '', stderr: '', exitCode: null, signal: child.killedWith };
    return { stdout: '', stderr: '', exitCode: result.exitCode, signal: null };
  }
}

const SHELL_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The line for ctx.exec, whose `args` then go unparsed to its first command: the file itself, or `eval` for a shell
 * line. The environment is also given as assignments in front, because just-bash exports to a command (`node`
 * included) only the variables its own shell exports, not those of ctx.exec's env.
 */
function commandLine(spec: ChildSpec): string {
  const assignments = Object.entries(spec.env)
    .filter(([name]) => SHELL_NAME.test(name))
    .map(([name, value]) => `${name}=${shellQuote(value)} `)
    .join('');
  return `${assignments}${spec.args === null ? 'eval' : shellQuote(spec.command)}`;
}

function outcomeOf(spec: ChildSpec, result: { stdout: string; stderr: string; exitCode: number }, killedWith: string | undefined): ChildOutcome {
  if (killedWith) {
    // The shell's own note about the abort is not the child's output.
    return { stdout: result.stdout, stderr: result.stderr.replace(/bash: execution aborted\n?$/, ''), exitCode: null, signal: killedWith };
  }
  if (spec.args !== null && result.exitCode === 127 && notFound(spec.command, result.stderr)) {
    return { stdout: '', stderr: '', exitCode: -2, signal: null, error: { code: 'ENOENT', message: `spawn ${spec.command} ENOENT` } };
  }
  const tooLong = result.stdout.length > spec.maxBuffer ? 'stdout' : result.stderr.length > spec.maxBuffer ? 'stderr' : undefined;
  if (tooLong) {
    return {
      stdout: result.stdout.slice(0, spec.maxBuffer),
      stderr: result.stderr.slice(0, spec.maxBuffer),
      exitCode: null,
      signal: spec.killSignal,
      error: { code: 'ENOBUFS', message: `${tooLong} maxBuffer length exceeded` },
    };
  }
  return { stdout: result.stdout, stderr: result.stderr, exitCode: result.exitCode, signal: null };
}

/** The shell's answer when the file named is no command it knows. */
function notFound(command: string, stderr: string): boolean {
  const prefix = `bash: ${shellQuote(command)}: `;
  const alsoPrefix = `bash: ${command}: `;
  return [prefix, alsoPrefix].some((p) => stderr === `${p}command not found\n` || stderr === `${p}No such file or directory\n`);
}

function invalid(reason: string): FsAnswer {
  return { kind: 'error', code: 'EINVAL', message: `EINVAL: the child process was refused: ${reason}` };
}
