// What the guest's child_process asks of the host, over the engine's blocking request channel (the one fs uses,
// with ops named `proc.*`), and what the host answers. The host checks every request: the guest is untrusted.

/** One child process to start: a shell line (`args` null) or a file with its arguments, as plain data. */
export type ChildSpec = {
  command: string;
  /** null: `command` is a shell line; else `command` is the file and these its arguments, passed unparsed. */
  args: string[] | null;
  cwd: string;
  /** The child's whole environment (Node's options.env replaces the parent's, it does not add to it). */
  env: Record<string, string>;
  stdin: string;
  /** 0: none. */
  timeoutMs: number;
  killSignal: string;
  /** Bytes of stdout or stderr kept; past it the child is killed and the output cut (Node's ENOBUFS). */
  maxBuffer: number;
};

/** How a child ended, with everything it printed. */
export type ChildOutcome = {
  stdout: string;
  stderr: string;
  /** null when a signal ended it. */
  exitCode: number | null;
  signal: string | null;
  /** The child could not start (ENOENT: no such command) or its output passed maxBuffer (ENOBUFS). */
  error?: { code: 'ENOENT' | 'ENOBUFS'; message: string };
};

/**
 * What `proc.poll` delivers of an asynchronous child: output while it runs (a `node` child's, as it prints), then its
 * end, whose stdout and stderr hold only what was not delivered before.
 */
export type ChildEvent = { id: number; kind: 'output'; fd: 1 | 2; text: string } | (ChildOutcome & { id: number; kind: 'end' });

/** The ops: `proc.spawn` [spec] -> {id, pid}; `proc.run` [spec] -> ChildOutcome; `proc.poll` [] -> ChildEvent[]; `proc.kill` [id, signal] -> boolean. */
export type ChildOp = 'proc.spawn' | 'proc.run' | 'proc.poll' | 'proc.kill';

export const CHILD_OP_PREFIX = 'proc.';

/** The signals kill() accepts, by name and number (Linux numbering, as Node reports them). */
export const SIGNALS: Record<string, number> = {
  SIGHUP: 1,
  SIGINT: 2,
  SIGQUIT: 3,
  SIGABRT: 6,
  SIGKILL: 9,
  SIGUSR1: 10,
  SIGSEGV: 11,
  SIGUSR2: 12,
  SIGPIPE: 13,
  SIGALRM: 14,
  SIGTERM: 15,
};
