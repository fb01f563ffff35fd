// One long-lived `/bin/jsh --osc` on a pseudo-terminal, driven the way StackBlitz's own apps drive it (bolt.diy's and
// Chef's shell): wait for the `interactive` sequence; per command, press Ctrl-C and wait for a `prompt`, type the
// command and Enter, and read its end and exit code from the `exit` sequence. `cd` persists natively.
// What the pty echoes back (the typed line) is cut from the command's output; the ready/exit sequences never reach it.

import { stripAnsi } from '../../exec/ansi';
import { JshOscParser, type JshEvent } from './osc';
import type { WcProcess, WebContainerLike } from '../webcontainer-like';

export type JshSessionOptions = {
  /** Workdir-relative folder to start in ('.' for the workdir). */
  cwd: string;
  /** The session's environment, for every command typed into it. */
  env: Record<string, string>;
  /** How long to wait for `interactive`, and for a `prompt` after Ctrl-C. */
  readyTimeoutMs?: number;
  /** How long Ctrl-C gets to stop a command before the session is killed. */
  interruptGraceMs?: number;
};

export type SessionCommandOutcome =
  /** The `exit` sequence came, with the command's exit code. */
  | { kind: 'exited'; exitCode: number }
  /** jsh itself ended (the command ran `exit`); the session is gone. */
  | { kind: 'ended'; exitCode: number }
  /** Stopped on request: by Ctrl-C, or by killing the session when Ctrl-C did not help. */
  | { kind: 'stopped' };

/** Thrown when the session is not in a state to take a command; nothing was typed, so the command may run elsewhere. */
export class JshSessionUnusable extends Error {
  override name = 'JshSessionUnusable';
}

// Wide enough that a typed command does not wrap (its echo is found as one line); longer ones run elsewhere.
export const SESSION_COLUMNS = 1000;
const SESSION_ROWS = 50;
const DEFAULT_READY_TIMEOUT_MS = 10_000;
const DEFAULT_INTERRUPT_GRACE_MS = 750;
// Output that still arrives after jsh itself exited is kept for this long (the stream closes after the exit code).
const DRAIN_AFTER_END_MS = 250;
// If the echo of the typed line is not found in this much output, the output is taken as it is.
const MAX_ECHO_SEARCH = 64 * 1024;

type Waiter = { events: readonly JshEvent['type'][]; resolve: (event: JshEvent | 'ended') => void };

type Command = {
  typed: string;
  echoSeen: boolean;
  pending: string;
  onRaw: (raw: string) => void;
  finish: (outcome: SessionCommandOutcome) => void;
};

/** A started `jsh --osc` session; run() takes one command at a time (the caller queues). */
export class JshSession {
  private readonly parser = new JshOscParser();
  private readonly writer: WritableStreamDefaultWriter<string>;
  private waiters: Waiter[] = [];
  private command: Command | undefined;
  private ended: number | undefined;
  private readonly drained: Promise<void>;
  private readonly readyTimeoutMs: number;
  private readonly interruptGraceMs: number;

  /** Spawns `/bin/jsh --osc` in `options.cwd` and resolves once it is interactive; rejects if it never is. */
  static async start(container: WebContainerLike, options: JshSessionOptions): Promise<JshSession> {
    const process = await container.spawn('/bin/jsh', ['--osc'], {
      cwd: options.cwd,
      env: options.env,
      terminal: { cols: SESSION_COLUMNS, rows: SESSION_ROWS },
    });
    const session = new JshSession(process, options);
    const ready = await session.waitFor(['interactive'], session.readyTimeoutMs);
    if (ready !== 'ended' && ready !== 'timeout') return session;
    session.kill();
    throw new Error(
      ready === 'timeout'
        ? `jsh --osc did not say it was interactive within ${session.readyTimeoutMs / 1000} s.`
        : 'jsh --osc exited before it was interactive.',
    );
  }

  private constructor(
    private readonly process: WcProcess,
    options: JshSessionOptions,
  ) {
    this.readyTimeoutMs = options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS;
    this.interruptGraceMs = options.interruptGraceMs ?? DEFAULT_INTERRUPT_GRACE_MS;
    this.writer = process.input.getWriter();
    this.drained = this.read();
    void process.exit.then((code) => this.onEnd(code));
  }

  /** False once jsh has exited or was killed. */
  get alive(): boolean {
    return this.ended === undefined;
  }

  /**
   * Types `command` (one line) and resolves when it is over. `onRaw` gets its output as the terminal shows it,
   * without the echoed command line and without OSC 654 sequences. Aborting `signal` presses Ctrl-C, and kills the
   * session if that does not end the command within the grace period. Throws JshSessionUnusable, having typed
   * nothing, when jsh does not come back to a prompt.
   */
  async run(command: string, options: { onRaw: (raw: string) => void; signal?: AbortSignal }): Promise<SessionCommandOutcome> {
    if (!this.alive) throw new JshSessionUnusable('The jsh session has ended.');
    if (this.command) throw new Error('The jsh session is running another command; queue commands before run().');
    // As StackBlitz's apps do: Ctrl-C clears whatever is on the line, and the prompt after it means jsh listens.
    const prompted = this.waitFor(['prompt'], this.readyTimeoutMs);
    this.type('\x03');
    const ready = await prompted;
    if (ready === 'timeout' || ready === 'ended') {
      this.kill();
      throw new JshSessionUnusable('jsh did not come back to a prompt after Ctrl-C.');
    }
    if (options.signal?.aborted) return { kind: 'stopped' };

    const finished = new Promise<SessionCommandOutcome>((resolve) => {
      this.command = { typed: command, echoSeen: false, pending: '', onRaw: options.onRaw, finish: resolve };
    });
    const onAbort = () => void this.interrupt();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    this.type(`${command}\n`);
    try {
      return await finished;
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
      this.command = undefined;
    }
  }

  /** Ends the session (and whatever runs in it). */
  kill(): void {
    if (this.alive) this.process.kill();
    this.onEnd(this.ended ?? -1);
  }

  private async interrupt(): Promise<void> {
    const command = this.command;
    if (!command) return;
    const stoppedBy = this.waitFor(['exit', 'prompt'], this.interruptGraceMs);
    this.type('\x03');
    const outcome = await stoppedBy;
    if (outcome === 'timeout') this.kill();
    this.flushPending(command);
    command.finish({ kind: 'stopped' });
  }

  private type(text: string): void {
    this.writer.write(text).catch(() => undefined); // jsh exiting; its end is handled by onEnd
  }

  private async read(): Promise<void> {
    const reader = this.process.output.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        this.dispatch(value);
      }
    } catch {
      // A broken stream just ends the output.
    }
    this.dispatch(this.parser.flush());
  }

  private dispatch(chunk: string): void {
    for (const part of this.parser.push(chunk)) {
      if (part.kind === 'text') {
        if (this.command) this.onCommandText(this.command, part.text);
        continue; // between commands: the prompt, and whatever background jobs print
      }
      const { event } = part;
      if (event.type === 'exit' && this.command?.echoSeen) {
        const command = this.command;
        this.flushPending(command);
        command.finish({ kind: 'exited', exitCode: event.code });
      }
      for (const waiter of this.waiters.filter((w) => w.events.includes(event.type))) waiter.resolve(event);
    }
  }

  /** Cuts the echoed command line off the front of the output, then hands the output on. */
  private onCommandText(command: Command, text: string): void {
    if (command.echoSeen) return command.onRaw(text);
    command.pending += text;
    const after = endOfEcho(command.pending, command.typed);
    if (after !== undefined) {
      command.echoSeen = true;
      const rest = command.pending.slice(after);
      command.pending = '';
      if (rest !== '') command.onRaw(rest);
    } else if (command.pending.length > MAX_ECHO_SEARCH) {
      this.flushPending(command); // no echo to be found: everything is output
    }
  }

  private flushPending(command: Command): void {
    command.echoSeen = true;
    if (command.pending !== '') command.onRaw(command.pending);
    command.pending = '';
  }

  private onEnd(code: number): void {
    if (this.ended !== undefined) return;
    this.ended = code;
    for (const waiter of this.waiters) waiter.resolve('ended');
    const command = this.command;
    if (!command) return;
    // Keep what is still on its way, then report jsh's own exit code as the command's.
    void Promise.race([this.drained, delay(DRAIN_AFTER_END_MS)]).then(() => {
      this.flushPending(command);
      command.finish({ kind: 'ended', exitCode: code });
    });
  }

  private waitFor(events: readonly JshEvent['type'][], timeoutMs: number): Promise<JshEvent | 'ended' | 'timeout'> {
    if (!this.alive) return Promise.resolve('ended');
    return new Promise((resolve) => {
      const waiter: Waiter = {
        events,
        resolve: (outcome) => {
          clearTimeout(timer);
          this.waiters = this.waiters.filter((w) => w !== waiter);
          resolve(outcome);
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve('timeout');
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }
}

/**
 * Where the command's own output starts in `raw`: just past the line break that ends the echo of `typed` (the
 * prompt and the echo may carry colours and other escapes), or undefined while that echo is not complete.
 */
function endOfEcho(raw: string, typed: string): number | undefined {
  for (let at = raw.indexOf('\n'); at !== -1; at = raw.indexOf('\n', at + 1)) {
    if (stripAnsi(raw.slice(0, at)).includes(typed)) return at + 1;
  }
  return undefined;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
