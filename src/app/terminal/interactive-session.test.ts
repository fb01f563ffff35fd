import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../runtime/types';
import { canOpenShell, InteractiveSession, type InteractiveProcess } from './interactive-session';

/** A pseudo-terminal process double: echoes input back, exits on "exit\r", records resizes and kills. */
function fakeShellProcess() {
  let emit!: (chunk: string) => void;
  let close!: () => void;
  let exitWith!: (code: number) => void;
  const output = new ReadableStream<string>({
    start(controller) {
      emit = (chunk) => controller.enqueue(chunk);
      close = () => controller.close();
    },
  });
  const typed: string[] = [];
  const resizes: { cols: number; rows: number }[] = [];
  let killed = false;
  const exit = new Promise<number>((resolve) => (exitWith = resolve));
  const input = new WritableStream<string>({
    write(chunk) {
      typed.push(chunk);
      emit(chunk);
      if (typed.join('').endsWith('exit\r')) {
        emit('\r\nbye');
        close();
        exitWith(0);
      }
    },
  });
  const process: InteractiveProcess = {
    output,
    input,
    exit,
    resize: (size) => resizes.push(size),
    kill: () => {
      killed = true;
    },
  };
  return { process, typed, resizes, emit, killed: () => killed };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function setup() {
  const spawned: ReturnType<typeof fakeShellProcess>[] = [];
  const sizes: { cols: number; rows: number }[] = [];
  const host = {
    async openShell(size: { cols: number; rows: number }) {
      sizes.push(size);
      const shell = fakeShellProcess();
      spawned.push(shell);
      return shell.process;
    },
  };
  let screen = '';
  const session = new InteractiveSession(host, (data) => (screen += data), { cols: 80, rows: 24 });
  return { session, spawned, sizes, screen: () => screen };
}

describe('InteractiveSession', () => {
  it('opens the shell at the terminal size and passes keystrokes and output through unchanged', async () => {
    const { session, spawned, sizes, screen } = setup();
    await session.start();
    expect(sizes).toEqual([{ cols: 80, rows: 24 }]);
    session.handleInput('ls\x1b[A\r');
    spawned[0].emit('\x1b[32mok\x1b[0m');
    await settle();
    expect(spawned[0].typed.join('')).toBe('ls\x1b[A\r');
    expect(screen()).toBe('ls\x1b[A\r\x1b[32mok\x1b[0m');
  });

  it('resizes the pseudo-terminal with the panel', async () => {
    const { session, spawned } = setup();
    await session.start();
    session.resize(120, 40);
    expect(spawned[0].resizes).toEqual([{ cols: 120, rows: 40 }]);
  });

  it('keeps the last output of an exiting shell and offers a new one on Enter', async () => {
    const { session, spawned, screen } = setup();
    await session.start();
    session.handleInput('exit\r');
    expect(await session.exited()).toBe(0);
    await settle();
    expect(screen()).toContain('bye');
    expect(screen()).toContain('The shell exited (code 0). Press Enter for a new one.');
    session.handleInput('x');
    expect(spawned).toHaveLength(1);
    session.handleInput('\r');
    await session.start();
    expect(spawned).toHaveLength(2);
  });

  it('shows why the shell could not start', async () => {
    let screen = '';
    const host = {
      openShell: () => Promise.reject(new Error('WebContainer is not ready')),
    };
    const session = new InteractiveSession(host, (data) => (screen += data), { cols: 80, rows: 24 });
    await session.start();
    expect(screen).toContain('The shell could not start: WebContainer is not ready');
  });

  it('kills the shell when disposed', async () => {
    const { session, spawned } = setup();
    await session.start();
    session.dispose();
    expect(spawned[0].killed()).toBe(true);
  });
});

describe('canOpenShell', () => {
  it('detects the optional openShell capability', () => {
    const plain = { kind: 'embedded' } as unknown as Runtime;
    const capable = { kind: 'webcontainer', openShell: async () => fakeShellProcess().process } as unknown as Runtime;
    expect(canOpenShell(plain)).toBe(false);
    expect(canOpenShell(capable)).toBe(true);
  });
});
