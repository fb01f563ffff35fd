// The agent's long-lived shell on WebContainer: one `jsh --osc` session (session.ts) that commands take turns on,
// so two commands never interleave their output; a command that arrives while another runs waits, and says so.
// The session is started lazily in the folder the adapter asks for and replaced when it ended (a command ran
// `exit`), was killed (Ctrl-C did not stop a command), or sits in another folder than the one asked for (the
// workspace was replaced, or a script in a shell of its own moved the session on).

import { JshSession, JshSessionUnusable } from './session';
import { toModelText } from '../../exec/model-text';
import { relativePath } from '../../paths';
import type { WebContainerLike } from '../webcontainer-like';

export type SessionShellRun = {
  /** The folder (absolute) the command starts in: the session's, as the adapter knows it. */
  cwd: string;
  onRaw: (raw: string) => void;
  signal: AbortSignal;
  /** Called when the command has to wait for the one before it. */
  onWaiting: () => void;
};

/** The exit code (null when stopped) and the session's folder afterwards (absolute). */
export type SessionShellOutcome = { exitCode: number | null; cwd: string };

// A command that may change the folder; after it the session is asked where it is (a `pwd` typed into it).
const MOVES_FOLDER = /(?:^|[;&|\s(])(?:cd|pushd|popd)(?:$|[\s;&|)])/;
// After this many sessions in a row failed to start, the shell stops trying (each try waits for jsh's readiness).
const MAX_FAILED_STARTS = 2;

/** Queues commands onto one jsh --osc session in `workdir`'s container. */
export class SessionShell {
  private session: { shell: JshSession; cwd: string } | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private waiting = 0;
  private disposed = false;
  private failedStarts = 0;

  constructor(
    private readonly container: WebContainerLike,
    private readonly workdir: string,
    private readonly env: Record<string, string>,
    private readonly timing: { readyTimeoutMs?: number } = {},
  ) {}

  /** True while a command runs or waits. */
  get busy(): boolean {
    return this.waiting > 0;
  }

  /**
   * Runs one typed line in the session, after the commands queued before it. Throws (having run nothing) when no
   * session could be started or brought to a prompt, so the caller can run the command another way.
   */
  run(command: string, options: SessionShellRun): Promise<SessionShellOutcome> {
    if (this.waiting > 0) options.onWaiting();
    this.waiting += 1;
    const turn = this.queue.then(() => this.runNow(command, options));
    this.queue = turn.catch(() => undefined);
    return turn.finally(() => {
      this.waiting -= 1;
    });
  }

  /** Ends the session. */
  dispose(): void {
    this.disposed = true;
    this.session?.shell.kill();
    this.session = undefined;
  }

  private async runNow(command: string, options: SessionShellRun): Promise<SessionShellOutcome> {
    if (options.signal.aborted) return { exitCode: null, cwd: options.cwd };
    let session = await this.sessionIn(options.cwd);
    let outcome;
    try {
      outcome = await session.shell.run(command, { onRaw: options.onRaw, signal: options.signal });
    } catch (error) {
      if (!(error instanceof JshSessionUnusable)) throw error;
      this.session = undefined; // nothing was typed: one more try on a fresh session
      session = await this.sessionIn(options.cwd);
      outcome = await session.shell.run(command, { onRaw: options.onRaw, signal: options.signal });
    }
    if (!session.shell.alive) this.session = undefined;
    if (outcome.kind === 'stopped') return { exitCode: null, cwd: session.cwd };
    if (outcome.kind === 'exited' && session.shell.alive && MOVES_FOLDER.test(command)) {
      session.cwd = (await this.askFolder(session.shell)) ?? session.cwd;
    }
    return { exitCode: outcome.exitCode, cwd: session.cwd };
  }

  /** The live session, started (or restarted) in `cwd` when there is none there. */
  private async sessionIn(cwd: string): Promise<{ shell: JshSession; cwd: string }> {
    if (this.disposed) throw new Error('This shell was disposed.');
    if (this.session?.shell.alive && this.session.cwd === cwd) return this.session;
    this.session?.shell.kill();
    this.session = undefined;
    if (this.failedStarts >= MAX_FAILED_STARTS) throw new Error('jsh --osc sessions stopped starting; commands run in shells of their own.');
    try {
      const shell = await JshSession.start(this.container, {
        cwd: relativePath(this.workdir, cwd) || '.',
        env: this.env,
        readyTimeoutMs: this.timing.readyTimeoutMs,
      });
      this.failedStarts = 0;
      this.session = { shell, cwd };
      return this.session;
    } catch (error) {
      this.failedStarts += 1;
      throw error;
    }
  }

  private async askFolder(shell: JshSession): Promise<string | undefined> {
    let raw = '';
    const answer = await shell
      .run('pwd', { onRaw: (chunk) => (raw += chunk) })
      .catch(() => undefined);
    if (answer?.kind !== 'exited' || answer.exitCode !== 0) return undefined;
    const folder = toModelText(raw).split('\n').map((line) => line.trim()).filter(Boolean).at(-1);
    return folder?.startsWith('/') ? folder : undefined;
  }
}
