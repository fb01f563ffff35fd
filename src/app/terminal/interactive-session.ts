// The person's interactive shell when the runtime offers one (WebContainer's `jsh` on a pseudo-terminal): raw
// keystrokes in, raw terminal output out, resized with the panel. DOM-free, so tests drive it with fake streams.

import { errorText } from '../../ai/messages';
import type { Runtime } from '../../runtime/types';

/** A process attached to a pseudo-terminal; `WebContainerProcess` has this shape. */
export type InteractiveProcess = {
  output: ReadableStream<string>;
  input: WritableStream<string>;
  exit: Promise<number>;
  resize(dimensions: { cols: number; rows: number }): void;
  kill(): void;
};

/** Optional runtime capability: start an interactive shell in the sandbox the agent uses. */
export type InteractiveShellHost = {
  openShell(size: { cols: number; rows: number }): Promise<InteractiveProcess>;
};

/** True when the runtime can give the person a real interactive shell. */
export function canOpenShell(runtime: Runtime): runtime is Runtime & InteractiveShellHost {
  return typeof (runtime as Partial<InteractiveShellHost>).openShell === 'function';
}

// Grey (bright black) rather than dim: xterm draws dim text at half opacity, too faint to read (WCAG contrast).
const DIM = '\x1b[90m';
const RED = '\x1b[31m';
const RESET = '\x1b[0m';

/** Pipes a terminal to an interactive shell process; offers a new shell when it exits. */
export class InteractiveSession {
  private process: InteractiveProcess | null = null;
  private writer: WritableStreamDefaultWriter<string> | null = null;
  private size: { cols: number; rows: number };
  private disposed = false;
  private starting: Promise<void> | null = null;
  private latestExit: Promise<number> | null = null;

  constructor(
    private readonly host: InteractiveShellHost,
    private readonly write: (data: string) => void,
    size: { cols: number; rows: number },
  ) {
    this.size = size;
  }

  /** Starts the shell; settles once it runs (or failed, with the reason shown in the terminal). */
  start(): Promise<void> {
    this.starting ??= this.spawn().finally(() => {
      this.starting = null;
    });
    return this.starting;
  }

  /** Settles with the exit code of the latest shell, once it has exited (null if none started). */
  async exited(): Promise<number | null> {
    await this.starting;
    return this.latestExit;
  }

  handleInput(data: string): void {
    if (this.disposed) return;
    if (!this.writer) {
      // No shell (it exited or failed to start): Enter asks for a new one.
      if (data.includes('\r') && !this.starting) void this.start();
      return;
    }
    this.writer.write(data).catch(() => {
      // The shell is exiting; its exit handler tells the person.
    });
  }

  resize(cols: number, rows: number): void {
    this.size = { cols, rows };
    this.process?.resize(this.size);
  }

  dispose(): void {
    this.disposed = true;
    this.writer?.releaseLock();
    this.writer = null;
    this.process?.kill();
    this.process = null;
  }

  private async spawn(): Promise<void> {
    let process: InteractiveProcess;
    try {
      process = await this.host.openShell(this.size);
    } catch (error) {
      if (!this.disposed) {
        const reason = errorText(error);
        this.write(`${RED}The shell could not start: ${reason}${RESET}\r\n${DIM}Press Enter to try again.${RESET}\r\n`);
      }
      return;
    }
    if (this.disposed) {
      process.kill();
      return;
    }
    this.process = process;
    this.latestExit = process.exit;
    this.writer = process.input.getWriter();
    void this.pipeOutput(process);
    void process.exit.then((code) => this.onExit(process, code));
  }

  private async pipeOutput(process: InteractiveProcess): Promise<void> {
    const reader = process.output.getReader();
    try {
      // Read to the end even after dispose: the stream has no backpressure, and cancelling it would make the
      // WebContainer API's push into it throw.
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        if (!this.disposed) this.write(value);
      }
    } catch {
      // The stream errors when the process is killed; nothing to show.
    } finally {
      reader.releaseLock();
    }
  }

  private onExit(process: InteractiveProcess, code: number): void {
    if (this.disposed || this.process !== process) return;
    this.writer?.releaseLock();
    this.writer = null;
    this.process = null;
    this.write(`\r\n${DIM}The shell exited (code ${code}). Press Enter for a new one.${RESET}\r\n`);
  }
}
