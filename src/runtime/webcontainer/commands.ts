// How the WebContainer runtime runs the agent's commands: the way the boot probe found working (exec-probe.ts), with
// the agent's environment, stops on timeout or abort, and output split into the raw terminal stream and the model's
// text. The adapter (webcontainer.ts) owns the session folder and hands it in.

import { appendNote, stopNote } from '../exec/notes';
import { probeExecStrategies, unprobedReport, type ExecProbeReport, type ExecStrategy } from './exec-probe';
import { createExecSignal } from '../exec/signal';
import { runJshCommand } from './jsh/command';
import { SESSION_COLUMNS } from './jsh/session';
import { ModelTextFilter } from '../exec/model-text';
import { OutputTail } from '../exec/output-tail';
import { relativePath } from '../paths';
import { SessionShell } from './jsh/session-shell';
import type { ExecOptions, ExecResult } from '../types';
import type { WebContainerLike } from './webcontainer-like';

/**
 * The environment of the agent's commands. Their output comes from a pseudo-terminal whose input stays open, so a
 * prompt (npx's "Ok to proceed? (y)") would wait forever: npm takes yes from npm_config_yes (StackBlitz's own fix in
 * bolt.new), and most other tools stop asking under CI.
 */
export const AGENT_COMMAND_ENV: Readonly<Record<string, string>> = { npm_config_yes: 'true', CI: '1' };

// Shown to the person (the agent's terminal view), not to the model, while a command waits its turn on the session.
const WAITING_NOTE = '\x1b[2m[waiting for the shell: another command is still running]\x1b[0m\r\n';

export type CommandRunnerOptions = {
  /** How commands run: 'probe' asks jsh once, at the first command (or when the runtime is booted). */
  exec: 'probe' | ExecStrategy;
  /** Every command's raw output, for the agent's terminal view. */
  onRawOutput?: (chunk: string, command: string) => void;
};

export type CommandRun = Pick<ExecOptions, 'signal' | 'timeoutMs' | 'onOutput' | 'env'> & {
  /** The folder (absolute) to start in. */
  startDir: string;
  /** Whether the command gets a shell of its own (it has its own cwd or env). */
  ownShell: boolean;
  /** Text the output starts with (a note from the adapter). */
  preface: string;
  /** This command's raw output. */
  onRawOutput?: (chunk: string) => void;
};

/** Runs commands in one WebContainer, in the session or in shells of their own. */
export class CommandRunner {
  private probe: Promise<ExecProbeReport> | undefined;
  private readonly session: SessionShell;

  constructor(
    private readonly container: WebContainerLike,
    private readonly workdir: string,
    private readonly options: CommandRunnerOptions,
  ) {
    this.session = new SessionShell(container, workdir, AGENT_COMMAND_ENV);
  }

  /** Which way commands run: probed once, on the first call. */
  strategy(): Promise<ExecProbeReport> {
    this.probe ??=
      this.options.exec === 'probe'
        ? probeExecStrategies(this.container, AGENT_COMMAND_ENV)
        : Promise.resolve(unprobedReport(this.options.exec));
    return this.probe;
  }

  /**
   * Runs `command`: typed into the one long-lived `jsh --osc` session when the probe chose it and the command is a
   * single line (commands take turns; `cd` persists natively), else in a `jsh -c` of its own (wrapped to carry `cd`
   * over when the probe found the wrapper working). A command with its own `cwd` or `env` always gets a shell of its
   * own: both are spawn options there (no `cd` and no `NAME=value` syntax, which jsh may lack), so the session's
   * folder and environment never change, and a `cd` inside such a command does not carry over. Resolves with the
   * result and, when it is known, the folder the shell ended in.
   */
  async run(command: string, run: CommandRun): Promise<{ result: ExecResult; cwd: string | undefined }> {
    const report = await this.strategy();
    const stopper = createExecSignal({ external: run.signal, timeoutMs: run.timeoutMs });
    const tail = new OutputTail();
    const emit = (text: string): void => {
      if (text === '') return;
      tail.push(text);
      run.onOutput?.(text);
    };
    const toTerminal = (raw: string): void => {
      run.onRawOutput?.(raw);
      this.options.onRawOutput?.(raw, command);
    };
    const modelText = new ModelTextFilter();
    const onRaw = (raw: string): void => {
      if (raw === '') return;
      toTerminal(raw);
      emit(modelText.push(raw));
    };
    emit(run.preface);
    try {
      let cwd: string | undefined;
      let exitCode: number | null = null;
      if (stopper.stopReason() === undefined) {
        const env = { ...AGENT_COMMAND_ENV, ...run.env };
        ({ exitCode, cwd } = await this.runIn(report, command, { ...run, env, onRaw, signal: stopper.signal, onWaiting: () => toTerminal(WAITING_NOTE) }));
      }
      emit(modelText.flush());
      const reason = stopper.stopReason();
      if (reason !== undefined) return { result: { output: appendNote(tail.text(), stopNote(reason, run.timeoutMs)), exitCode: null }, cwd: undefined };
      return { result: { output: tail.text(), exitCode }, cwd: run.ownShell ? undefined : cwd };
    } finally {
      stopper.dispose();
    }
  }

  /** Ends the session. */
  dispose(): void {
    this.session.dispose();
  }

  private async runIn(
    report: ExecProbeReport,
    command: string,
    run: CommandRun & { env: Record<string, string>; onRaw: (raw: string) => void; signal: AbortSignal; onWaiting: () => void },
  ): Promise<{ exitCode: number | null; cwd: string | undefined }> {
    const typed = command.trim();
    if (!run.ownShell && report.strategy === 'osc-session' && isTypeable(typed)) {
      try {
        return await this.session.run(typed, { cwd: run.startDir, onRaw: run.onRaw, signal: run.signal, onWaiting: run.onWaiting });
      } catch {
        // No session could start or take the command (nothing was typed): it runs in a shell of its own instead.
      }
    }
    const learnCwd = !run.ownShell && (report.strategy === 'wrapper' || (report.strategy === 'osc-session' && report.wrapper.works));
    return runJshCommand(this.container, command, {
      cwd: spawnCwd(this.workdir, run.startDir),
      env: run.env,
      learnCwd,
      onRaw: run.onRaw,
      signal: run.signal,
    });
  }
}

/**
 * `spawn()` takes its cwd relative to the workdir (the typings say so). A folder outside the workdir climbs out with
 * '..' (GUESS: nothing says whether the real API accepts that).
 */
export function spawnCwd(workdir: string, absolute: string): string {
  return relativePath(workdir, absolute) || '.';
}

/** Whether `command` can be typed into the session as one line (a tab would trigger completion, not be typed). */
function isTypeable(command: string): boolean {
  return command !== '' && command.length < SESSION_COLUMNS - 200 && !/[\x00-\x1f\x7f]/.test(command);
}
