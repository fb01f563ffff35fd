// The embedded runtime's shell session: just-bash over the workspace with the dev box's commands, keeping its
// directory from one command to the next as a real shell does (just-bash itself resets it per call). A command's
// stdout and stderr come back as one stream in the order they were written, cut to its tail, with a note when a
// timeout or an abort stopped it; its changes reach the watchers before its result.

import { Bash, type CustomCommand } from 'just-bash';
import type { ExecOptions, ExecResult } from '../types';
import { toModelText } from '../exec/model-text';
import { createExecSignal } from '../exec/signal';
import { appendNote, stopNote } from '../exec/notes';
import { OutputTail } from '../exec/output-tail';
import { normalizeAbsolute } from '../paths';
import type { WatchBatcher } from '../workspace/watch-batcher';
import { interruptibleLoops } from './interruptible-loops';
import { entryType } from './memory-fs';
import type { ObservedFs } from './observed-fs';

export type EmbeddedExecOptions = ExecOptions & {
  /** Polled at every shell statement; true stops the command (the worker's cross-thread stop flag). */
  interruptRequested?: () => boolean;
};

// just-bash's default limits stop any loop after 100,000 iterations; a real build script may need more, and the
// caller's timeout is what should stop a runaway loop.
const EXECUTION_LIMITS = { maxCommandCount: 10_000_000, maxLoopIterations: 10_000_000 };

export class BashSession {
  private readonly bash: Bash;
  private cwd: string;

  /**
   * A session over `fs` with `commands`, starting in `start.cwd` (default `workdir`) with `start.env` added to its
   * environment (a fork's shell starts as its parent's is); `changes` hears of a command's changes as one batch.
   */
  constructor(
    private readonly fs: ObservedFs,
    private readonly workdir: string,
    private readonly changes: WatchBatcher,
    commands: CustomCommand[],
    start: { cwd?: string; env?: Record<string, string> } = {},
  ) {
    this.cwd = start.cwd ?? workdir;
    const loops = interruptibleLoops();
    this.bash = new Bash({
      fs,
      cwd: workdir,
      env: { HOME: workdir, USER: 'user', LANG: 'C.UTF-8', ...start.env },
      executionLimits: EXECUTION_LIMITS,
      customCommands: [loops.command, ...commands],
    });
    this.bash.registerTransformPlugin(loops.plugin);
  }

  /** Where the next command starts (absolute). */
  get directory(): string {
    return this.cwd;
  }

  /** The next command starts in the workdir (the workspace was replaced under the session). */
  backToWorkdir(): void {
    this.cwd = this.workdir;
  }

  /** Runs `command` in `explicitCwd` (absolute) if given, else in the session's directory, which it then carries on. */
  async run(command: string, explicitCwd: string | undefined, opts: EmbeddedExecOptions): Promise<ExecResult> {
    let startDir = explicitCwd ?? this.cwd;
    let preface = '';
    if ((await entryType(this.fs, startDir, true)) !== 'dir') {
      if (explicitCwd !== undefined) {
        return { output: `cwd ${explicitCwd} does not exist or is not a directory.`, exitCode: 1 };
      }
      preface = `[the previous working directory ${startDir} no longer exists; running in ${this.workdir}]\n`;
      startDir = this.cwd = this.workdir;
    }

    const stopper = createExecSignal({
      external: opts.signal,
      timeoutMs: opts.timeoutMs,
      interruptRequested: opts.interruptRequested,
    });
    try {
      // `exec 2>&1` first makes just-bash write stdout and stderr into one stream, in the order they happen. The
      // group keeps what was printed before a timeout or abort (just-bash drops a bare script's output then). Both
      // on the command's first line so parse errors keep the model's line numbers.
      const result = await this.changes.holdDuring(() =>
        this.bash.exec(`exec 2>&1; { ${command}\n}`, { cwd: startDir, env: opts.env, signal: stopper.signal, rawScript: true }),
      );
      const reason = stopper.stopReason();
      let output = preface + toModelText(result.stdout + result.stderr);
      if (reason !== undefined) {
        output = appendNote(output.replace(/bash: execution aborted\n?$/, ''), stopNote(reason, opts.timeoutMs));
      }
      // After `exit` just-bash returns its starting environment, recognisable by the missing `?`; the directory
      // then stays where it was.
      const finalEnv = result.env;
      const finished = finalEnv !== undefined && '?' in finalEnv && typeof finalEnv.PWD === 'string';
      if (explicitCwd === undefined && reason === undefined && finished) this.cwd = normalizeAbsolute(finalEnv.PWD);
      if (output !== '') opts.onOutput?.(output);
      const tail = new OutputTail();
      tail.push(output);
      return { output: tail.text(), exitCode: reason === undefined ? result.exitCode : null };
    } finally {
      stopper.dispose();
      // The command's changes go out before its result, so whoever keeps track of changed files has them by then.
      this.changes.flush();
    }
  }
}
