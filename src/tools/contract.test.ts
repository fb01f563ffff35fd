// The tools as DESIGN.md and issue 2 state them, exercised the way a caller sets them up: createCodingTools over
// createEmbeddedRuntime({ files }), tools looked up by name.
import { describe, expect, it } from 'vitest';
import type { AgentTool, AgentToolResult } from '../agent/types';
import { createEmbeddedRuntime } from '../runtime/embedded';
import { createEmbeddedRuntimeInWorker } from '../runtime/embedded/client';
import { createInMemoryWorker } from '../runtime/testing/in-memory-worker';
import type { ExecOptions, ExecResult, Runtime } from '../runtime/types';
import { createCodingTools, DEFAULT_ACTIVE_TOOLS } from './index';
import { errorOf, textOf } from './testing/tool-kit';

async function toolsOver(files: Record<string, string | Uint8Array> = {}) {
  const runtime = await createEmbeddedRuntime({ files });
  const tools = createCodingTools(runtime);
  const tool = (name: string): AgentTool => {
    const found = tools.find((t) => t.name === name);
    if (!found) throw new Error(`no ${name} tool`);
    return found;
  };
  const run = (name: string, args: Record<string, unknown>, onUpdate?: (p: AgentToolResult) => void) =>
    tool(name).execute('call-1', args as never, undefined, onUpdate);
  const file = async (path: string) => new TextDecoder().decode(await runtime.readFile(path));
  return { runtime, tools, run, file };
}

const numbered = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join('\n');

describe('createCodingTools', () => {
  it('returns the seven tools plus todo by name, and read, bash, edit, write, todo and task are active by default', async () => {
    const { tools } = await toolsOver();
    expect(tools.map((t) => t.name).sort()).toEqual(['bash', 'edit', 'find', 'grep', 'ls', 'read', 'todo', 'write']);
    expect([...DEFAULT_ACTIVE_TOOLS]).toEqual(['read', 'bash', 'edit', 'write', 'todo', 'task']);
  });
});

describe('read, as a caller sees it', () => {
  it('cuts a 2500-line file naming the range 1-2000, the total 2500 and offset=2001', async () => {
    const { run } = await toolsOver({ 'big.txt': numbered(2500) });
    const text = textOf(await run('read', { path: 'big.txt' }));
    expect(text).toContain('line 2000');
    expect(text).not.toContain('line 2001');
    expect(text).toMatch(/1-2000/);
    expect(text).toContain('2500');
    expect(text).toContain('offset=2001');
  });

  it('says how many lines remain after a limit, and the offset to continue', async () => {
    const { run } = await toolsOver({ 'f.txt': numbered(100) });
    const text = textOf(await run('read', { path: 'f.txt', offset: 11, limit: 10 }));
    expect(text.startsWith('line 11\n')).toBe(true);
    expect(text).toContain('80 more lines');
    expect(text).toContain('offset=21');
  });

  it('rejects an offset past the end naming the line count', async () => {
    const { runtime } = await toolsOver({ 'f.txt': numbered(12) });
    const read = createCodingTools(runtime).find((t) => t.name === 'read')!;
    const message = await errorOf(read.execute('id', { path: 'f.txt', offset: 50 } as never));
    expect(message).toContain('12');
  });
});

describe('write, as a caller sees it', () => {
  it('creates nested folders', async () => {
    const { run, file } = await toolsOver();
    const text = textOf(await run('write', { path: 'a/b/c/d.txt', content: 'deep' }));
    expect(await file('/home/project/a/b/c/d.txt')).toBe('deep');
    expect(text).toContain('a/b/c/d.txt');
  });
});

describe('edit, as a caller sees it', () => {
  it('matches every edit against the original, not against the result of earlier edits', async () => {
    const { run, file } = await toolsOver({ 'f.txt': 'one\ntwo\n' });
    await run('edit', { path: 'f.txt', edits: [{ oldText: 'one', newText: 'two' }, { oldText: 'two', newText: 'three' }] });
    expect(await file('f.txt')).toBe('two\nthree\n');
  });

  it('names the second edit and writes nothing when it fails', async () => {
    const { runtime, file } = await toolsOver({ 'f.txt': 'alpha\nbeta\n' });
    const edit = createCodingTools(runtime).find((t) => t.name === 'edit')!;
    const message = await errorOf(
      edit.execute('id', { path: 'f.txt', edits: [{ oldText: 'alpha', newText: 'A' }, { oldText: 'zeta', newText: 'Z' }] } as never),
    );
    expect(message).toContain('edits[1]');
    expect(await file('f.txt')).toBe('alpha\nbeta\n');
  });

  it('reports the number of occurrences of an ambiguous oldText', async () => {
    const { runtime } = await toolsOver({ 'f.txt': 'x\nx\nx\n' });
    const edit = createCodingTools(runtime).find((t) => t.name === 'edit')!;
    const message = await errorOf(edit.execute('id', { path: 'f.txt', edits: [{ oldText: 'x', newText: 'y' }] } as never));
    expect(message).toContain('3 occurrences');
  });

  it('keeps CRLF and the BOM, and untouched lines byte-identical in a tolerant match', async () => {
    const { run, runtime } = await toolsOver({ 'w.txt': '\ufeffkeep  \r\nfix \u2014 me\r\nend\t\r\n' });
    await run('edit', { path: 'w.txt', edits: [{ oldText: 'fix - me', newText: 'fixed' }] });
    const bytes = await runtime.readFile('w.txt');
    expect(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)).toBe('\ufeffkeep  \r\nfixed\r\nend\t\r\n');
  });
});

describe('bash, as a caller sees it', () => {
  it('streams output through onUpdate even from a runtime that reports it all at the end', async () => {
    const { run } = await toolsOver();
    const updates: AgentToolResult[] = [];
    const result = await run('bash', { command: 'echo streamed' }, (partial) => updates.push(partial));
    expect(textOf(result)).toBe('streamed\n');
    expect(updates.length).toBeGreaterThan(0);
    expect(textOf(updates.at(-1)!)).toContain('streamed');
  });

  it('saves the whole output to the named file even when the runtime keeps only a tail', async () => {
    const { runtime } = await toolsOver();
    const lines = Array.from({ length: 200_000 }, (_, i) => `row ${i + 1}`);
    const whole = `${lines.join('\n')}\n`;
    const cutRuntime = Object.assign(Object.create(runtime) as Runtime, {
      async exec(_command: string, options?: ExecOptions): Promise<ExecResult> {
        for (let i = 0; i < whole.length; i += 65_536) options?.onOutput?.(whole.slice(i, i + 65_536));
        return { output: `[output cut: the first 1 characters are not kept here]\n${whole.slice(-1_000_000)}`, exitCode: 0 };
      },
    });
    const bash = createCodingTools(cutRuntime).find((t) => t.name === 'bash')!;
    const result = await bash.execute('id', { command: 'flood' } as never);
    const path = (result.details as { fullOutputPath: string }).fullOutputPath;
    expect(textOf(result)).toContain(path);
    expect(new TextDecoder().decode(await runtime.readFile(path))).toBe(whole);
  });

  it('reads the full-output file of 4000 lines with the read tool', async () => {
    const { run } = await toolsOver();
    const result = await run('bash', { command: "seq 1 4000 | sed 's/^/n/'" });
    const text = textOf(result);
    expect(text).toContain('n4000');
    expect(text).not.toMatch(/^n1$/m);
    const path = /(\/tmp\/\S+\.log)/.exec(text)?.[1];
    expect(path).toBeDefined();
    const saved = textOf(await run('read', { path: path!, limit: 2 }));
    expect(saved.startsWith('n1\nn2')).toBe(true);
  });
});

describe('grep, find and ls, as a caller sees them', () => {
  it('greps for --help as a pattern', async () => {
    const { run } = await toolsOver({ 'cli.txt': 'usage: tool --help\nother\n' });
    expect(textOf(await run('grep', { pattern: '--help' }))).toBe('cli.txt:1: usage: tool --help');
  });

  it('finds dotfiles, skips node_modules, .git and ignored files', async () => {
    const { run } = await toolsOver({
      '.env.example': 'A=1',
      '.gitignore': 'dist/\n*.log\n',
      'src/a.ts': '',
      'dist/out.js': '',
      'debug.log': '',
      'node_modules/x/index.js': '',
      '.git/HEAD': '',
    });
    const text = textOf(await run('find', { pattern: '*' }));
    const lines = text.split('\n');
    expect(lines).toContain('.env.example');
    expect(lines).toContain('src/a.ts');
    expect(text).not.toContain('dist');
    expect(text).not.toContain('debug.log');
    expect(text).not.toContain('node_modules');
    expect(text).not.toContain('.git/');
  });

  it('ls: sorted, slash after folders, dotfiles, empty folder, file is not a directory', async () => {
    const { run, runtime } = await toolsOver({ 'b.txt': '', 'a.txt': '', '.hidden': '', 'src/x.ts': '' });
    expect(textOf(await run('ls', {}))).toBe('.hidden\na.txt\nb.txt\nsrc/');
    await runtime.mkdir('empty');
    expect(textOf(await run('ls', { path: 'empty' }))).toMatch(/empty/);
    const ls = createCodingTools(runtime).find((t) => t.name === 'ls')!;
    expect(await errorOf(ls.execute('id', { path: 'a.txt' } as never))).toContain('not a directory');
  });
});

describe('the tools over the embedded runtime behind its worker protocol', () => {
  it('edit, write, read, bash (tail + full-output file) and abort work the same', async () => {
    const runtime = await createEmbeddedRuntimeInWorker({
      files: { 'f.txt': 'one\ntwo\n' },
      createWorker: () => createInMemoryWorker(),
    });
    try {
      const tools = Object.fromEntries(createCodingTools(runtime).map((t) => [t.name, t]));
      const run = (name: string, args: Record<string, unknown>, signal?: AbortSignal) =>
        tools[name].execute('call-w', args as never, signal);
      await Promise.all([
        run('edit', { path: 'f.txt', edits: [{ oldText: 'one', newText: 'ONE' }] }),
        run('edit', { path: 'f.txt', edits: [{ oldText: 'two', newText: 'TWO' }] }),
      ]);
      expect(textOf(await run('read', { path: 'f.txt' }))).toBe('ONE\nTWO');

      const long = textOf(await run('bash', { command: "seq 1 4000 | sed 's/^/n/'" }));
      expect(long).toContain('n4000');
      const path = /(\/tmp\/\S+\.log)/.exec(long)?.[1];
      expect(textOf(await run('read', { path: path!, limit: 1 }))).toMatch(/^n1\n/);

      const controller = new AbortController();
      setTimeout(() => controller.abort(), 200);
      const message = await errorOf(run('bash', { command: 'echo started; sleep 30' }, controller.signal));
      expect(message).toContain('started');
      expect(message).toContain('aborted');
    } finally {
      await runtime.dispose();
    }
  });
});
