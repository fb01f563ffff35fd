// jsh, StackBlitz's shell, as the WebContainer double plays it: `jsh -c <script>` and the interactive `jsh` (with
// `--osc`, the OSC 654 sequences StackBlitz's apps read). Lines jsh is reported to refuse fail with its messages
// (jsh-grammar.ts); the others run with /bin/sh on a pseudo-terminal (pty-process.ts). Every behaviour nobody could
// confirm is taken from webcontainer-guesses.ts.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { refusalOf, type JshGrammar } from './jsh-grammar';
import { startPtyProcess, type PtyProcess, type PtySize } from './pty-process';
import {
  ENTER_ECHO,
  EXIT_BUILTIN_ENDS_SESSION,
  exitSequence,
  INPUT_BEFORE_INTERACTIVE_IS_LOST,
  INTERRUPT_ECHO,
  INTERRUPTED_EXIT_CODE,
  promptSequence,
  SCRIPT_STOPS_AT_FIRST_FAILURE,
  startUpSequence,
} from './webcontainer-guesses';

export type JshContext = {
  cwd: string;
  env: Record<string, string>;
  size: PtySize;
  /** The folder as the prompt shows it. */
  displayPath: (cwd: string) => string;
  emit: (text: string) => void;
  /** The shell ended with `code` (its output is complete). */
  end: (code: number) => void;
};

/** A running jsh, driven by the double's process object. */
export interface JshDouble {
  input(text: string): void;
  resize(size: PtySize): void;
  kill(exitCode: number): void;
}

// The double's own bookkeeping around each run: the script comes in through the environment (no quoting), and the
// shell's final folder goes out through a file, so neither shows in the output.
const RUNNER = 'eval "$CONCH_DOUBLE_SCRIPT"\n__conch_double_status=$?\npwd > "$CONCH_DOUBLE_STATE"\nexit $__conch_double_status';

type Run = { process: PtyProcess; finished: Promise<{ code: number; cwd: string | undefined }>; dispose(): void };

function runOnPty(script: string, context: Pick<JshContext, 'cwd' | 'env' | 'size' | 'emit'>): Run {
  const stateDir = mkdtempSync(join(tmpdir(), 'conch-jsh-'));
  const stateFile = join(stateDir, 'cwd');
  const process = startPtyProcess(`exec /bin/sh -c '${RUNNER}'`, {
    cwd: context.cwd,
    env: { ...context.env, CONCH_DOUBLE_SCRIPT: script, CONCH_DOUBLE_STATE: stateFile },
    size: context.size,
    onOutput: context.emit,
  });
  const finished = process.exit.then((code) => {
    let cwd: string | undefined;
    try {
      cwd = readFileSync(stateFile, 'utf8').replace(/\n$/, '');
    } catch {
      cwd = undefined; // the script ran `exit`, or was killed, before the end
    }
    return { code, cwd };
  });
  return { process, finished, dispose: () => rmSync(stateDir, { recursive: true, force: true }) };
}

/** `jsh -c script`: its lines in order, up to the first jsh refuses (which prints jsh's error and ends the run). */
export function startJshScript(script: string, context: JshContext, grammar: JshGrammar): JshDouble {
  const lines = script.split('\n');
  const refusedAt = lines.findIndex((line) => refusalOf(line, grammar) !== undefined);
  const runnable = refusedAt === -1 ? script : lines.slice(0, refusedAt).join('\n');
  const refusal = refusedAt === -1 ? undefined : refusalOf(lines[refusedAt], grammar);
  const finishWithRefusal = (fallback: number): void => {
    if (!refusal) return context.end(fallback);
    context.emit(`${refusal.message}\r\n`);
    context.end(SCRIPT_STOPS_AT_FIRST_FAILURE ? refusal.exitCode : fallback);
  };
  if (runnable.trim() === '') {
    queueMicrotask(() => finishWithRefusal(0));
    return { input: () => undefined, resize: () => undefined, kill: (code) => context.end(code) };
  }
  const run = runOnPty(runnable, context);
  let killed = false;
  void run.finished.then(({ code, cwd }) => {
    run.dispose();
    if (killed) return;
    // Reaching the end of the runnable lines leaves the folder behind; an `exit` on the way does not.
    if (cwd !== undefined) finishWithRefusal(code);
    else context.end(code);
  });
  return {
    input: (text) => run.process.write(text),
    resize: () => undefined,
    kill: (code) => {
      killed = true;
      run.process.kill();
      context.end(code);
    },
  };
}

/** The interactive `jsh` (`osc`: with the OSC 654 sequences of `jsh --osc`). */
export function startInteractiveJsh(context: JshContext, osc: boolean, grammar: JshGrammar): JshDouble {
  return new InteractiveJsh(context, osc, grammar);
}

class InteractiveJsh implements JshDouble {
  private cwd: string;
  private size: PtySize;
  private interactive = false;
  private line = '';
  private running: { run: Run; interrupted: boolean } | undefined;
  private commandsRun = 0;
  private ended = false;

  constructor(
    private readonly context: JshContext,
    private readonly osc: boolean,
    private readonly grammar: JshGrammar,
  ) {
    this.cwd = context.cwd;
    this.size = context.size;
    setImmediate(() => {
      if (this.ended) return;
      const startUp = startUpSequence(context.displayPath(this.cwd));
      this.emit(this.osc ? startUp : withoutOsc(startUp));
      this.interactive = true;
    });
  }

  input(text: string): void {
    if (this.ended || (!this.interactive && INPUT_BEFORE_INTERACTIVE_IS_LOST)) return;
    let echo = '';
    for (let i = 0; i < text.length; i++) {
      const ch = text[i];
      if (this.running) {
        if (ch === '\x03') this.interrupt();
        else this.running.run.process.write(ch);
        continue;
      }
      if (ch === '\r' || ch === '\n') {
        this.emit(echo + ENTER_ECHO);
        echo = '';
        const line = this.line;
        this.line = '';
        this.submit(line);
      } else if (ch === '\x03') {
        this.emit(echo + INTERRUPT_ECHO);
        echo = '';
        this.line = '';
        this.prompt();
      } else if (ch === '\x7f' || ch === '\b') {
        if (this.line !== '') {
          this.line = this.line.slice(0, -1);
          echo += '\b \b';
        }
      } else if (ch === '\x1b') {
        const sequence = /^\x1b\[[0-9;?]*[ -/]*[@-~]|^\x1bO./.exec(text.slice(i));
        i += (sequence?.[0].length ?? 1) - 1; // arrows and other keys: no history or cursor editing here
      } else if (ch >= ' ') {
        this.line += ch;
        echo += ch;
      }
    }
    if (echo !== '') this.emit(echo);
  }

  resize(size: PtySize): void {
    this.size = size;
  }

  kill(exitCode: number): void {
    this.running?.run.process.kill();
    this.end(exitCode);
  }

  private submit(line: string): void {
    if (line.trim() === '') return this.prompt();
    const refusal = refusalOf(line, this.grammar);
    if (refusal) {
      this.emit(`${refusal.message}\r\n`);
      return this.finishCommand(refusal.exitCode);
    }
    const run = runOnPty(line, { cwd: this.cwd, env: this.context.env, size: this.size, emit: (text) => this.emit(text) });
    const running = { run, interrupted: false };
    this.running = running;
    void run.finished.then(({ code, cwd }) => {
      run.dispose();
      if (this.running !== running || this.ended) return;
      this.running = undefined;
      if (running.interrupted) {
        this.emit(INTERRUPT_ECHO);
        return this.finishCommand(INTERRUPTED_EXIT_CODE);
      }
      if (cwd !== undefined) {
        this.cwd = cwd;
        return this.finishCommand(code);
      }
      // The line ran `exit`.
      if (EXIT_BUILTIN_ENDS_SESSION) return this.end(code);
      this.finishCommand(code);
    });
  }

  private interrupt(): void {
    if (!this.running || this.running.interrupted) return;
    this.running.interrupted = true;
    this.running.run.process.kill();
  }

  private finishCommand(code: number): void {
    this.commandsRun += 1;
    if (this.osc) this.emit(exitSequence(code, this.commandsRun));
    this.prompt();
  }

  private prompt(): void {
    const text = promptSequence(this.context.displayPath(this.cwd));
    this.emit(this.osc ? text : withoutOsc(text));
  }

  private emit(text: string): void {
    if (!this.ended) this.context.emit(text);
  }

  private end(code: number): void {
    if (this.ended) return;
    this.ended = true;
    this.context.end(code);
  }
}

/** Without --osc jsh prints the same, minus the OSC 654 sequences. */
function withoutOsc(text: string): string {
  return text.replace(/\x1b\]654;[^\x07]*\x07/g, '');
}
