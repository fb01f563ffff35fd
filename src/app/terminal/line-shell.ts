// The person's line-editing shell over `Runtime.exec`: used with the embedded runtime, and with WebContainer when no
// interactive `jsh` is available. DOM-free: it reads terminal input (xterm's `onData` strings) and writes terminal
// output to a sink, so tests drive it without a terminal.

import { errorText } from '../../ai/messages';
import type { Runtime } from '../../runtime/types';
import { matchKey, PASTE_END, PASTE_START, unknownEscapeLength, type EditKey } from './terminal-keys';

export type ShellRuntime = Pick<Runtime, 'exec' | 'workdir'>;

export type LineShellOptions = {
  runtime: ShellRuntime;
  /** Receives everything to show, with terminal control sequences and `\r\n` line ends. */
  write: (data: string) => void;
  /** Terminal width, for cursor movement across wrapped lines. */
  columns?: number;
  historyLimit?: number;
};

const ESC = '\x1b';
const CSI = `${ESC}[`;
const RED = `${CSI}31m`;
const CYAN = `${CSI}36m`;
// Grey (bright black) rather than dim: xterm draws dim text at half opacity, too faint to read (WCAG contrast).
const DIM = `${CSI}90m`;
const RESET = `${CSI}0m`;

/** A prompt, a line editor with history, and command execution through `runtime.exec` with Ctrl+C to abort. */
export class LineShell {
  private readonly runtime: ShellRuntime;
  private readonly write: (data: string) => void;
  private readonly historyLimit: number;
  private columns: number;

  private line = '';
  private cursor = 0;
  private history: string[] = [];
  private historyIndex = 0; // history.length means "the line being typed"
  private draft = '';
  private cwd: string;
  private lastExitCode: number | null = 0;

  private running: { controller: AbortController; done: Promise<void> } | null = null;
  private typeahead = '';
  private started = false;
  private disposed = false;
  private lastWrittenChar = '\n';

  constructor(options: LineShellOptions) {
    this.runtime = options.runtime;
    this.write = options.write;
    this.columns = Math.max(options.columns ?? 80, 1);
    this.historyLimit = options.historyLimit ?? 500;
    this.cwd = options.runtime.workdir;
  }

  /** Shows the first prompt (after asking the runtime for its current directory). */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    await this.refreshCwd();
    if (this.disposed) return;
    this.showPrompt();
    this.drainTypeahead();
  }

  /** True while a command runs. */
  get busy(): boolean {
    return this.running !== null;
  }

  /** The directory the prompt shows, absolute. */
  get currentDirectory(): string {
    return this.cwd;
  }

  /** Settles when the running command (if any) has finished and the next prompt is shown. */
  async idle(): Promise<void> {
    while (this.running) await this.running.done;
  }

  /** Tells the shell the terminal's new width, so edits of wrapped lines land in the right place. */
  resize(columns: number): void {
    this.columns = Math.max(Math.floor(columns), 1);
  }

  /** Stops the running command and ignores further input. */
  dispose(): void {
    this.disposed = true;
    this.running?.controller.abort();
  }

  /** Feeds terminal input: typed keys, control sequences, or pasted text. */
  handleInput(data: string): void {
    if (this.disposed) return;
    if (this.running || !this.started) {
      this.handleInputWhileBusy(data);
      return;
    }
    let rest = data.replaceAll(PASTE_START, '').replaceAll(PASTE_END, '');
    while (rest.length > 0 && !this.running) {
      const consumed = this.handleOne(rest);
      rest = rest.slice(consumed);
    }
    // A pasted line started a command: keep the remaining lines for when it finishes.
    if (rest.length > 0) this.typeahead += rest;
  }

  private handleInputWhileBusy(data: string): void {
    const interrupt = data.indexOf('\x03');
    if (interrupt >= 0 && this.running) {
      this.typeahead = '';
      this.interrupt();
      return;
    }
    this.typeahead += data.replaceAll(PASTE_START, '').replaceAll(PASTE_END, '');
  }

  /** Handles the key at the start of `data`; returns how many characters it used. */
  private handleOne(data: string): number {
    const key = matchKey(data);
    if (key) {
      this.handleKey(key.key);
      return key.length;
    }
    if (data.startsWith(ESC)) return unknownEscapeLength(data);
    // Pasted text arrives as one chunk: insert its printable run at once, stopping at the next control character.
    const run = /^[^\x00-\x1f\x7f]+/.exec(data);
    if (run) {
      this.insert(run[0]);
      return run[0].length;
    }
    if (data[0] === '\n') {
      this.handleKey('enter');
      return 1;
    }
    // No completion: a Tab key does nothing, a tab inside pasted text keeps the words apart.
    if (data[0] === '\t') {
      if (data.length > 1) this.insert(' ');
      return 1;
    }
    return 1; // other control characters do nothing
  }

  private handleKey(key: EditKey): void {
    switch (key) {
      case 'enter':
        this.submit();
        return;
      case 'backspace':
        if (this.cursor === 0) return;
        this.line = this.line.slice(0, this.cursor - 1) + this.line.slice(this.cursor);
        this.redraw(this.cursor - 1);
        return;
      case 'delete':
        if (this.cursor >= this.line.length) return;
        this.line = this.line.slice(0, this.cursor) + this.line.slice(this.cursor + 1);
        this.redraw(this.cursor);
        return;
      case 'delete-or-nothing':
        this.handleKey('delete');
        return;
      case 'left':
        if (this.cursor > 0) this.moveCursor(this.cursor - 1);
        return;
      case 'right':
        if (this.cursor < this.line.length) this.moveCursor(this.cursor + 1);
        return;
      case 'home':
        this.moveCursor(0);
        return;
      case 'end':
        this.moveCursor(this.line.length);
        return;
      case 'kill-before':
        this.line = this.line.slice(this.cursor);
        this.redraw(0);
        return;
      case 'kill-after':
        this.line = this.line.slice(0, this.cursor);
        this.redraw(this.cursor);
        return;
      case 'kill-word': {
        const before = this.line.slice(0, this.cursor).replace(/\S+\s*$/, '');
        this.line = before + this.line.slice(this.cursor);
        this.redraw(before.length);
        return;
      }
      case 'up':
        this.recall(this.historyIndex - 1);
        return;
      case 'down':
        this.recall(this.historyIndex + 1);
        return;
      case 'interrupt':
        this.moveCursor(this.line.length);
        this.emit(`^C\r\n`);
        this.line = '';
        this.cursor = 0;
        this.historyIndex = this.history.length;
        this.showPrompt();
        return;
      case 'clear-screen':
        this.emit(`${CSI}H${CSI}2J${CSI}3J`);
        this.showPrompt(false);
        this.redraw(this.cursor, true);
        return;
      default: {
        const unhandled: never = key;
        throw new Error(`Unhandled key ${String(unhandled)}`);
      }
    }
  }

  private insert(text: string): void {
    this.line = this.line.slice(0, this.cursor) + text + this.line.slice(this.cursor);
    const target = this.cursor + text.length;
    if (target === this.line.length) {
      // Typing at the end: just echo, the common case stays cheap.
      this.emit(text);
      this.cursor = target;
      this.fixPendingWrap();
      return;
    }
    this.redraw(target);
  }

  private recall(index: number): void {
    if (index < 0 || index > this.history.length || index === this.historyIndex) return;
    if (this.historyIndex === this.history.length) this.draft = this.line;
    this.historyIndex = index;
    this.line = index === this.history.length ? this.draft : this.history[index];
    this.redraw(this.line.length);
  }

  private submit(): void {
    const command = this.line;
    this.moveCursor(this.line.length);
    this.emit('\r\n');
    this.line = '';
    this.cursor = 0;
    this.draft = '';
    if (command.trim() === '') {
      this.historyIndex = this.history.length;
      this.showPrompt();
      return;
    }
    if (this.history[this.history.length - 1] !== command) this.history.push(command);
    if (this.history.length > this.historyLimit) this.history.shift();
    this.historyIndex = this.history.length;
    this.run(command);
  }

  private run(command: string): void {
    const controller = new AbortController();
    const done = this.execute(command, controller).finally(() => {
      if (this.running?.controller === controller) this.running = null;
      if (this.disposed) return;
      this.showPrompt();
      this.drainTypeahead();
    });
    this.running = { controller, done };
  }

  private async execute(command: string, controller: AbortController): Promise<void> {
    const { signal } = controller;
    const aborted = new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    const onOutput = (chunk: string) => {
      if (!signal.aborted) this.emit(toTerminalLineEnds(chunk));
    };
    const finished = this.runtime.exec(command, { onOutput, signal }).then(
      (result) => {
        this.lastExitCode = result.exitCode;
      },
      (error: unknown) => {
        if (signal.aborted) return;
        this.lastExitCode = 1;
        this.endOutputLine();
        this.emit(`${RED}${errorText(error)}${RESET}\r\n`);
      },
    );
    // Ctrl+C gives the prompt back at once, even if the runtime takes a while to stop the process.
    await Promise.race([finished, aborted]);
    if (signal.aborted) {
      this.lastExitCode = 130;
      return;
    }
    await this.refreshCwd();
  }

  private interrupt(): void {
    if (!this.running) return;
    this.endOutputLine();
    this.emit('^C\r\n');
    this.lastWrittenChar = '\n';
    this.running.controller.abort();
  }

  // The runtime keeps `cd` across calls; asking it is simpler and more faithful than parsing the command line.
  private async refreshCwd(): Promise<void> {
    try {
      const result = await this.runtime.exec('pwd');
      const path = result.output.trim().split('\n').pop()?.trim();
      if (result.exitCode === 0 && path && path.startsWith('/')) this.cwd = path;
    } catch {
      // Keep the last known directory: the prompt is informational.
    }
  }

  private drainTypeahead(): void {
    if (this.typeahead === '' || this.running) return;
    const pending = this.typeahead;
    this.typeahead = '';
    this.handleInput(pending);
  }

  private prompt(): { text: string; width: number } {
    const location = promptLocation(this.cwd, this.runtime.workdir);
    const failed = this.lastExitCode !== 0;
    const mark = failed ? `${RED}$${RESET}` : '$';
    return { text: `${CYAN}${location}${RESET} ${mark} `, width: [...location].length + 3 };
  }

  private showPrompt(startOnNewLine = true): void {
    if (startOnNewLine) this.endOutputLine();
    this.emit(this.prompt().text);
  }

  /** Output that did not end in a newline would otherwise collide with the prompt. */
  private endOutputLine(): void {
    if (this.lastWrittenChar !== '\n') this.emit(`${DIM}⏎${RESET}\r\n`);
  }

  // Cursor positions are counted in cells from the start of the prompt, across wrapped rows.
  private offsetOf(cursor: number): number {
    return this.prompt().width + cursor;
  }

  private moveCursor(target: number): void {
    this.emit(movement(this.offsetOf(this.cursor), this.offsetOf(target), this.columns));
    this.cursor = target;
  }

  /** Rewrites the line from the prompt on and puts the cursor at `target`. */
  private redraw(target: number, fromPromptEnd = false): void {
    if (!fromPromptEnd) this.emit(movement(this.offsetOf(this.cursor), this.offsetOf(0), this.columns));
    this.emit(`${this.line}`);
    this.cursor = this.line.length;
    this.fixPendingWrap();
    this.emit(`${CSI}J`);
    this.moveCursor(target);
  }

  // After a write ending exactly at the right edge the cursor waits on the last column; step onto the next row so
  // the arithmetic in `movement` holds.
  private fixPendingWrap(): void {
    const offset = this.offsetOf(this.cursor);
    if (offset > 0 && offset % this.columns === 0) this.emit(' \b');
  }

  private emit(data: string): void {
    if (data === '') return;
    this.lastWrittenChar = data[data.length - 1];
    this.write(data);
  }
}

/** The prompt's location: the workdir's name and the path below it, or the absolute path outside it. */
export function promptLocation(cwd: string, workdir: string): string {
  const root = workdir.replace(/\/+$/, '') || '/';
  const name = root.split('/').pop() || '/';
  if (cwd === root) return name;
  if (cwd.startsWith(`${root}/`)) return `${name}/${cwd.slice(root.length + 1)}`;
  return cwd;
}

/** Turns bare `\n` into `\r\n`, which a terminal needs to return to the first column. */
export function toTerminalLineEnds(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}

function movement(from: number, to: number, columns: number): string {
  const rowDelta = Math.floor(to / columns) - Math.floor(from / columns);
  const column = to % columns;
  let sequence = '';
  if (rowDelta < 0) sequence += `${CSI}${-rowDelta}A`;
  if (rowDelta > 0) sequence += `${CSI}${rowDelta}B`;
  if (rowDelta !== 0 || column !== from % columns) sequence += column === 0 ? '\r' : `\r${CSI}${column}C`;
  return sequence;
}
