// A host process on a real pseudo-terminal, as a WebContainer process is: util-linux `script` (Debian's essential
// bsdutils) gives it one, so programs see a TTY (npx asks before installing, colours come on), stdout and stderr
// merge in order, and LF comes out as CRLF. Output is decoded chunk by chunk the way @webcontainer/api's dist does
// it (one shared decoder, no `stream: true`): a character cut by a chunk boundary becomes U+FFFD.
// Node-only: the WebContainer double uses it; the app never does.

import { spawn as spawnChild, type ChildProcess } from 'node:child_process';

export type PtySize = { cols: number; rows: number };

export type PtyProcessOptions = {
  cwd: string;
  env: Record<string, string>;
  size: PtySize;
  /** Each decoded output chunk. */
  onOutput: (text: string) => void;
};

/** A process on a pseudo-terminal. */
export interface PtyProcess {
  /** The exit code (128 + signal number when a signal ended it). */
  readonly exit: Promise<number>;
  /** Types into the terminal (the line discipline echoes and turns CR into LF, like any pty). */
  write(text: string): void;
  /** Kills the process and everything it started. */
  kill(): void;
  readonly alive: boolean;
}

// The dist decodes with one module-level decoder and no streaming state; the double does the same.
const decoder = new TextDecoder();

/** Runs `command` (a /bin/sh command line) on a fresh pseudo-terminal of `size`. */
export function startPtyProcess(command: string, options: PtyProcessOptions): PtyProcess {
  const { cols, rows } = options.size;
  const line = `stty cols ${cols} rows ${rows} 2>/dev/null; ${command}`;
  let child: ChildProcess;
  try {
    child = spawnChild('script', ['-qfec', line, '/dev/null'], {
      cwd: options.cwd,
      env: { ...options.env, SHELL: '/bin/sh' },
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
  } catch (error) {
    throw new Error(`The WebContainer double needs util-linux's \`script\` for its pseudo-terminals: ${String(error)}`);
  }
  let alive = true;
  const exit = new Promise<number>((resolve) => {
    child.on('error', (error) => {
      alive = false;
      options.onOutput(`The WebContainer double could not start a pseudo-terminal (util-linux script): ${error.message}\r\n`);
      resolve(127);
    });
    child.on('close', (code, signal) => {
      alive = false;
      resolve(code ?? 128 + signalNumber(signal));
    });
  });
  // No backpressure, as in the dist: every chunk is handed on at once.
  const forward = (bytes: Buffer) => options.onOutput(decoder.decode(bytes));
  child.stdout?.on('data', forward);
  child.stderr?.on('data', forward);
  child.stdin?.on('error', () => undefined); // writing to a process that just exited

  return {
    exit,
    get alive() {
      return alive;
    },
    write(text) {
      if (alive) child.stdin?.write(text);
    },
    kill() {
      if (!alive || child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL'); // script and its process group; the program on the pty gets SIGHUP
      } catch {
        child.kill('SIGKILL');
      }
    },
  };
}

/** `text` as one /bin/sh word. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function signalNumber(signal: NodeJS.Signals | null): number {
  switch (signal) {
    case 'SIGHUP':
      return 1;
    case 'SIGINT':
      return 2;
    case 'SIGKILL':
      return 9;
    case 'SIGTERM':
      return 15;
    default:
      return 1;
  }
}
