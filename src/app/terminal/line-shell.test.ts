import { describe, expect, it } from 'vitest';
import { createEmbeddedRuntime } from '../../runtime/embedded';
import type { ExecOptions, ExecResult } from '../../runtime/types';
import { LineShell, promptLocation, toTerminalLineEnds, type ShellRuntime } from './line-shell';

const UP = '\x1b[A';
const DOWN = '\x1b[B';
const LEFT = '\x1b[D';
const RIGHT = '\x1b[C';
const HOME = '\x1b[H';
const END = '\x1b[F';
const BACKSPACE = '\x7f';
const CTRL_C = '\x03';

type Call = { command: string; signal?: AbortSignal };

/** A runtime double that keeps `cd` across calls, like both real runtimes. */
function fakeRuntime() {
  const workdir = '/home/project';
  let cwd = workdir;
  const calls: Call[] = [];
  const runtime: ShellRuntime = {
    workdir,
    async exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
      calls.push({ command, signal: options.signal });
      const say = (text: string): ExecResult => {
        options.onOutput?.(text);
        return { output: text, exitCode: 0 };
      };
      if (command === 'pwd') return say(`${cwd}\n`);
      const cd = /^cd\s*(.*)$/.exec(command);
      if (cd) {
        const target = cd[1] || workdir;
        cwd = target.startsWith('/') ? target : `${cwd}/${target}`;
        return { output: '', exitCode: 0 };
      }
      const echo = /^echo (.*)$/.exec(command);
      if (echo) return say(`${echo[1]}\n`);
      if (command === 'printf no-newline') return say('no-newline');
      if (command === 'false') return { output: '', exitCode: 1 };
      if (command === 'explode') throw new Error('The sandbox is gone. Reload the page.');
      if (command === 'stream') {
        options.onOutput?.('first\n');
        await new Promise((resolve) => setTimeout(resolve, 5));
        options.onOutput?.('second\n');
        return { output: 'first\nsecond\n', exitCode: 0 };
      }
      if (command === 'hang') {
        // Ignores abort and keeps talking, like a process that takes a while to die.
        await new Promise((resolve) => setTimeout(resolve, 30));
        options.onOutput?.('late output\n');
        return { output: 'late output\n', exitCode: null };
      }
      return { output: `jsh: command not found: ${command}\n`, exitCode: 127 };
    },
  };
  return { runtime, calls, userCommands: () => calls.map((call) => call.command).filter((c) => c !== 'pwd') };
}

async function startShell(columns = 80) {
  const fake = fakeRuntime();
  const screen = new TestScreen(columns);
  const shell = new LineShell({ runtime: fake.runtime, write: (data) => screen.write(data), columns });
  await shell.start();
  const type = async (data: string) => {
    shell.handleInput(data);
    await shell.idle();
  };
  return { ...fake, screen, shell, type };
}

describe('LineShell', () => {
  it('shows a prompt with the workdir name', async () => {
    const { screen } = await startShell();
    expect(screen.text()).toBe('project $');
  });

  it('runs a line on Enter and shows its output, then a new prompt', async () => {
    const { screen, type, userCommands } = await startShell();
    await type('echo hello\r');
    expect(userCommands()).toEqual(['echo hello']);
    expect(screen.lines()).toEqual(['project $ echo hello', 'hello', 'project $']);
  });

  it('shows the directory a cd moved to in the next prompt', async () => {
    const { screen, type } = await startShell();
    await type('cd src\r');
    await type('cd /tmp\r');
    expect(screen.lines()).toEqual(['project $ cd src', 'project/src $ cd /tmp', '/tmp $']);
  });

  it('edits in the middle of the line with left, right, home, end and backspace', async () => {
    const { screen, type, userCommands } = await startShell();
    await type('eho hi');
    await type(LEFT + LEFT + LEFT + LEFT + LEFT);
    await type('c');
    expect(screen.currentLine()).toBe('project $ echo hi');
    await type(HOME + 'x' + END + '!' + LEFT + RIGHT + BACKSPACE + BACKSPACE);
    expect(screen.currentLine()).toBe('project $ xecho h');
    await type(HOME + RIGHT + BACKSPACE + END + 'i\r');
    expect(userCommands()).toEqual(['echo hi']);
    expect(screen.lines().slice(-2)).toEqual(['hi', 'project $']);
  });

  it('puts the cursor where the edit happened', async () => {
    const { screen, type } = await startShell();
    await type('abcdef' + LEFT + LEFT);
    expect(screen.column).toBe('project $ abcd'.length);
    await type(BACKSPACE);
    expect(screen.column).toBe('project $ abc'.length);
    expect(screen.currentLine()).toBe('project $ abcef');
  });

  it('recalls earlier lines with up and down, keeping the line being typed', async () => {
    const { screen, type, userCommands } = await startShell();
    await type('echo one\r');
    await type('echo two\r');
    await type('draft');
    await type(UP);
    expect(screen.currentLine()).toBe('project $ echo two');
    await type(UP);
    expect(screen.currentLine()).toBe('project $ echo one');
    await type(UP);
    expect(screen.currentLine()).toBe('project $ echo one');
    await type(DOWN + DOWN);
    expect(screen.currentLine()).toBe('project $ draft');
    await type(UP + UP + '\r');
    expect(userCommands()).toEqual(['echo one', 'echo two', 'echo one']);
  });

  it('clears the line on Ctrl+C without running anything', async () => {
    const { screen, type, userCommands } = await startShell();
    await type('rm -rf nothing' + CTRL_C);
    expect(userCommands()).toEqual([]);
    expect(screen.lines()).toEqual(['project $ rm -rf nothing^C', 'project $']);
    await type('echo fresh\r');
    expect(userCommands()).toEqual(['echo fresh']);
  });

  it('aborts a running command on Ctrl+C and gives the prompt back at once', async () => {
    const { screen, shell, type, calls } = await startShell();
    shell.handleInput('hang\r');
    expect(shell.busy).toBe(true);
    await type(CTRL_C);
    expect(calls.find((call) => call.command === 'hang')?.signal?.aborted).toBe(true);
    expect(shell.busy).toBe(false);
    expect(screen.lines()).toEqual(['project $ hang', '^C', 'project $']);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.text()).not.toContain('late output');
  });

  it('streams output as it arrives', async () => {
    const { screen, shell } = await startShell();
    shell.handleInput('stream\r');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(screen.lines()).toEqual(['project $ stream', 'first']);
    await shell.idle();
    expect(screen.lines()).toEqual(['project $ stream', 'first', 'second', 'project $']);
  });

  it('runs each line of a multi-line paste in order', async () => {
    const { screen, shell, userCommands } = await startShell();
    shell.handleInput('\x1b[200~echo one\recho two\ncd src\r\x1b[201~');
    while (shell.busy) await shell.idle();
    expect(userCommands()).toEqual(['echo one', 'echo two', 'cd src']);
    expect(screen.lines()).toEqual([
      'project $ echo one',
      'one',
      'project $ echo two',
      'two',
      'project $ cd src',
      'project/src $',
    ]);
  });

  it('keeps keys typed while a command runs for the next prompt', async () => {
    const { shell, userCommands } = await startShell();
    shell.handleInput('stream\r');
    shell.handleInput('echo next\r');
    while (shell.busy) await shell.idle();
    expect(userCommands()).toEqual(['stream', 'echo next']);
  });

  it('starts the prompt on a new line after output without a final newline', async () => {
    const { screen, type } = await startShell();
    await type('printf no-newline\r');
    const lines = screen.lines();
    expect(lines[1]).toMatch(/^no-newline/);
    expect(lines[2]).toBe('project $');
  });

  it('marks a failed command in the prompt and reports a runtime error readably', async () => {
    const written: string[] = [];
    const { runtime } = fakeRuntime();
    const shell = new LineShell({ runtime, write: (data) => written.push(data) });
    await shell.start();
    shell.handleInput('false\r');
    await shell.idle();
    expect(written.join('')).toContain('\x1b[31m$');
    shell.handleInput('explode\r');
    await shell.idle();
    expect(written.join('')).toContain('The sandbox is gone. Reload the page.');
  });

  it('edits a line that wraps past the terminal width', async () => {
    const { screen, type, userCommands } = await startShell(20);
    const long = 'echo abcdefghijklmnopqrstuvwxyz';
    await type(long);
    expect(screen.lines()).toEqual(['project $ echo abcde', 'fghijklmnopqrstuvwxy', 'z']);
    await type(HOME + RIGHT + RIGHT + RIGHT + RIGHT + RIGHT + BACKSPACE + BACKSPACE);
    expect(screen.lines()).toEqual(['project $ echabcdefg', 'hijklmnopqrstuvwxyz']);
    await type('o ');
    await type('\r');
    expect(userCommands()).toEqual([long]);
    expect(screen.lines().slice(-3)).toEqual(['abcdefghijklmnopqrst', 'uvwxyz', 'project $']);
  });

  it('keeps its place when the line ends exactly at the right edge', async () => {
    const { screen, type } = await startShell(20);
    await type('echo hi\r');
    await type('echo 12345');
    await type(HOME + 'x');
    expect(screen.lines()).toEqual(['project $ echo hi', 'hi', 'project $ xecho 1234', '5']);
  });

  it('clears the screen on Ctrl+L and keeps the line being typed', async () => {
    const { screen, type } = await startShell();
    await type('echo one\r');
    await type('echo tw');
    await type('\x0c');
    expect(screen.lines()).toEqual(['project $ echo tw']);
    await type('o\r');
    expect(screen.lines()).toEqual(['project $ echo two', 'two', 'project $']);
  });

  it('ignores input after dispose and aborts the running command', async () => {
    const { shell, calls } = await startShell();
    shell.handleInput('hang\r');
    shell.dispose();
    expect(calls.find((call) => call.command === 'hang')?.signal?.aborted).toBe(true);
    shell.handleInput('echo ignored\r');
    expect(calls.map((call) => call.command)).not.toContain('echo ignored');
  });
});

describe('LineShell over the embedded runtime', () => {
  it('runs commands, keeps cd across them and shows a failure', async () => {
    const runtime = await createEmbeddedRuntime({ files: { 'src/main.ts': 'export {};\n' } });
    const screen = new TestScreen(80);
    const shell = new LineShell({ runtime, write: (data) => screen.write(data) });
    await shell.start();
    const type = async (data: string) => {
      shell.handleInput(data);
      await shell.idle();
    };
    await type('echo hello-from-terminal\r');
    await type('cd src\r');
    await type('ls\r');
    await type('pwd\r');
    await type('cat missing.txt\r');
    const lines = screen.lines();
    expect(lines.slice(0, 7)).toEqual([
      'project $ echo hello-from-terminal',
      'hello-from-terminal',
      'project $ cd src',
      'project/src $ ls',
      'main.ts',
      'project/src $ pwd',
      '/home/project/src',
    ]);
    expect(lines[7]).toBe('project/src $ cat missing.txt');
    expect(lines.slice(8).join('\n')).toMatch(/missing\.txt/);
    expect(shell.currentDirectory).toBe('/home/project/src');
    await runtime.dispose();
  });
});

describe('LineShell interrupting the embedded runtime', () => {
  it('stops a long command on Ctrl+C and the next command runs', async () => {
    const runtime = await createEmbeddedRuntime();
    const screen = new TestScreen(80);
    const shell = new LineShell({ runtime, write: (data) => screen.write(data) });
    await shell.start();
    const started = Date.now();
    shell.handleInput('sleep 10\r');
    await new Promise((resolve) => setTimeout(resolve, 50));
    shell.handleInput('\x03');
    await shell.idle();
    shell.handleInput('echo still-here\r');
    await shell.idle();
    expect(Date.now() - started).toBeLessThan(5000);
    expect(screen.lines()).toEqual(['project $ sleep 10', '^C', 'project $ echo still-here', 'still-here', 'project $']);
    await runtime.dispose();
  });
});

describe('promptLocation', () => {
  it('names the workdir, paths below it, and absolute paths outside it', () => {
    expect(promptLocation('/home/project', '/home/project')).toBe('project');
    expect(promptLocation('/home/project/src/lib', '/home/project')).toBe('project/src/lib');
    expect(promptLocation('/home/projects', '/home/project')).toBe('/home/projects');
    expect(promptLocation('/', '/')).toBe('/');
  });
});

describe('toTerminalLineEnds', () => {
  it('turns bare newlines into CR LF and leaves CR LF alone', () => {
    expect(toTerminalLineEnds('a\nb\r\nc')).toBe('a\r\nb\r\nc');
  });
});

// A minimal terminal screen: enough VT100 (printing, wrap, CR/LF, backspace, cursor moves, erase) to check what a
// person would see.
const CSI_PATTERN = /^\x1b\[([0-9;?]*)([@-~])/;

/** Applies terminal output to a grid of rows; `text()` is what the screen shows. */
class TestScreen {
  rows: string[][] = [[]];
  row = 0;
  column = 0;
  private pendingWrap = false;

  constructor(readonly columns = 80) {}

  write(data: string): void {
    let rest = data;
    while (rest.length > 0) {
      if (rest.startsWith('\x1b')) {
        const match = CSI_PATTERN.exec(rest);
        if (!match) throw new Error(`TestScreen: unsupported escape ${JSON.stringify(rest.slice(0, 6))}`);
        this.control(match[1], match[2]);
        rest = rest.slice(match[0].length);
        continue;
      }
      const char = [...rest][0];
      rest = rest.slice(char.length);
      if (char === '\r') {
        this.column = 0;
        this.pendingWrap = false;
      } else if (char === '\n') {
        this.moveTo(this.row + 1, this.column);
      } else if (char === '\b') {
        this.pendingWrap = false;
        this.column = Math.max(this.column - 1, 0);
      } else {
        this.print(char);
      }
    }
  }

  /** The screen's rows, trailing spaces trimmed, trailing empty rows dropped. */
  lines(): string[] {
    const lines = this.rows.map((cells) => Array.from(cells, (cell) => cell ?? ' ').join('').replace(/\s+$/, ''));
    while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
    return lines;
  }

  text(): string {
    return this.lines().join('\n');
  }

  /** The text of the row the cursor is on. */
  currentLine(): string {
    return this.lines()[this.row] ?? '';
  }

  private print(char: string): void {
    if (this.pendingWrap) {
      this.moveTo(this.row + 1, 0);
    }
    this.rowAt(this.row)[this.column] = char;
    if (this.column === this.columns - 1) this.pendingWrap = true;
    else this.column++;
  }

  private control(parameters: string, final: string): void {
    const count = Number(parameters || '1');
    switch (final) {
      case 'm':
        return; // colours do not change the text
      case 'A':
        return this.moveTo(Math.max(this.row - count, 0), this.column);
      case 'B':
        return this.moveTo(this.row + count, this.column);
      case 'C':
        return this.moveTo(this.row, Math.min(this.column + count, this.columns - 1));
      case 'D':
        return this.moveTo(this.row, Math.max(this.column - count, 0));
      case 'H':
        return this.moveTo(0, 0);
      case 'K':
        this.rowAt(this.row).length = this.column;
        return;
      case 'J':
        if (parameters === '2' || parameters === '3') {
          this.rows = [[]];
          return;
        }
        this.rowAt(this.row).length = this.column;
        this.rows.length = this.row + 1;
        return;
      default:
        throw new Error(`TestScreen: unsupported CSI ${parameters}${final}`);
    }
  }

  private moveTo(row: number, column: number): void {
    this.pendingWrap = false;
    this.row = row;
    this.column = column;
    this.rowAt(row);
  }

  private rowAt(row: number): string[] {
    while (this.rows.length <= row) this.rows.push([]);
    return this.rows[row];
  }
}
