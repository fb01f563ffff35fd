import { describe, expect, it } from 'vitest';
import { createFindTool } from './find';
import { createGrepTool } from './grep';
import { createLsTool } from './ls';
import { errorOf, runtimeWith, textOf } from './testing/tool-kit';

const project = {
  '.gitignore': 'dist/\n*.log\n',
  '.env': 'SECRET=1\n',
  'README.md': '# Demo\nRun with --help for options.\n',
  'src/main.ts': 'import { helper } from "./util";\nconsole.log(helper());\n',
  'src/util.ts': 'export function helper() {\n  return 42;\n}\n',
  'src/Upper.ts': 'export const HELPER = 1;\n',
  'src/nested/.gitignore': 'secret.ts\n',
  'src/nested/secret.ts': 'export const helper = "hidden";\n',
  'src/nested/open.ts': 'export const helper = "visible";\n',
  'dist/bundle.js': 'function helper(){}\n',
  'debug.log': 'helper called\n',
  'src/trace.log': 'helper traced\n',
  'node_modules/lib/index.js': 'module.exports.helper = 1;\n',
  'image.bin': new Uint8Array([0, 1, 2, 104, 101, 108, 112, 101, 114]),
};

describe('grep tool', () => {
  it('prints file:line: text with relative paths, skipping ignored, vendored and binary files', async () => {
    const runtime = await runtimeWith(project);
    const text = textOf(await createGrepTool(runtime).execute('id', { pattern: 'helper' }));
    expect(text.split('\n').sort()).toEqual([
      'src/main.ts:1: import { helper } from "./util";',
      'src/main.ts:2: console.log(helper());',
      'src/nested/open.ts:1: export const helper = "visible";',
      'src/util.ts:1: export function helper() {',
    ]);
  });

  it('applies .gitignore files above the searched folder', async () => {
    const runtime = await runtimeWith(project);
    const text = textOf(await createGrepTool(runtime).execute('id', { pattern: 'helper', path: 'src/nested' }));
    expect(text).toBe('src/nested/open.ts:1: export const helper = "visible";');
    const logs = textOf(await createFindTool(runtime).execute('id', { pattern: '*.log', path: 'src' }));
    expect(logs).toContain('No files match');
  });

  it('treats a pattern like --help as a pattern', async () => {
    const runtime = await runtimeWith(project);
    const text = textOf(await createGrepTool(runtime).execute('id', { pattern: '--help' }));
    expect(text).toBe('README.md:2: Run with --help for options.');
  });

  it('supports ignoreCase, literal, glob and path', async () => {
    const runtime = await runtimeWith(project);
    const grep = createGrepTool(runtime);
    expect(textOf(await grep.execute('id', { pattern: 'HELPER', ignoreCase: true, path: 'src', glob: 'U*.ts' }))).toBe(
      'src/Upper.ts:1: export const HELPER = 1;',
    );
    expect(textOf(await grep.execute('id', { pattern: 'helper()', literal: true }))).toBe(
      'src/main.ts:2: console.log(helper());\nsrc/util.ts:1: export function helper() {',
    );
    expect(textOf(await grep.execute('id', { pattern: '42', path: 'src/util.ts' }))).toBe('src/util.ts:2:   return 42;');
  });

  it('shows context lines with a dash separator', async () => {
    const runtime = await runtimeWith(project);
    const text = textOf(await createGrepTool(runtime).execute('id', { pattern: '42', context: 1 }));
    expect(text).toBe('src/util.ts-1- export function helper() {\nsrc/util.ts:2:   return 42;\nsrc/util.ts-3- }');
  });

  it('explains an invalid regular expression', async () => {
    const runtime = await runtimeWith(project);
    const message = await errorOf(createGrepTool(runtime).execute('id', { pattern: 'foo(' }));
    expect(message).toContain('Invalid regular expression "foo("');
    expect(message).toContain('literal: true');
  });

  it('says when nothing matches', async () => {
    const runtime = await runtimeWith(project);
    expect(textOf(await createGrepTool(runtime).execute('id', { pattern: 'zebra' }))).toContain('No matches for "zebra"');
  });

  it('stops at the limit and says how to narrow', async () => {
    const lines = Array.from({ length: 300 }, (_, i) => `match ${i}`).join('\n');
    const runtime = await runtimeWith({ 'many.txt': lines });
    const grep = createGrepTool(runtime);
    const text = textOf(await grep.execute('id', { pattern: 'match' }));
    expect(text.split('\n').filter((line) => line.startsWith('many.txt:'))).toHaveLength(100);
    expect(text).toContain('Stopped at 100 matches');
    const limited = textOf(await grep.execute('id', { pattern: 'match', limit: 5 }));
    expect(limited.split('\n').filter((line) => line.startsWith('many.txt:'))).toHaveLength(5);
  });

  it('cuts very long lines at 500 characters', async () => {
    const runtime = await runtimeWith({ 'min.js': `needle${'q'.repeat(2000)}` });
    const text = textOf(await createGrepTool(runtime).execute('id', { pattern: 'needle' }));
    expect(text.length).toBeLessThan(600);
    expect(text).toContain('line cut at 500 chars');
  });
});

describe('find tool', () => {
  it('matches names at any depth, includes dotfiles, respects .gitignore, sorted', async () => {
    const runtime = await runtimeWith(project);
    const find = createFindTool(runtime);
    expect(textOf(await find.execute('id', { pattern: '*.ts' }))).toBe(
      'src/Upper.ts\nsrc/main.ts\nsrc/nested/open.ts\nsrc/util.ts',
    );
    expect(textOf(await find.execute('id', { pattern: '.*' }))).toBe('.env\n.gitignore\nsrc/nested/.gitignore');
  });

  it('matches path globs relative to the search folder', async () => {
    const runtime = await runtimeWith(project);
    const text = textOf(await createFindTool(runtime).execute('id', { pattern: 'nested/*', path: 'src' }));
    expect(text).toBe('src/nested/.gitignore\nsrc/nested/open.ts');
  });

  it('says when nothing matches and when the limit is reached', async () => {
    const runtime = await runtimeWith(project);
    const find = createFindTool(runtime);
    expect(textOf(await find.execute('id', { pattern: '*.rs' }))).toContain('No files match "*.rs"');
    const limited = textOf(await find.execute('id', { pattern: '*.ts', limit: 2 }));
    expect(limited).toContain('src/Upper.ts\nsrc/main.ts\n\n[Showing 2 of 4 results');
  });
});

describe('ls tool', () => {
  it('lists sorted entries with dotfiles and a slash after folders', async () => {
    const runtime = await runtimeWith({ 'b.txt': '', 'A.md': '', '.hidden': '', 'lib/x.ts': '', 'c/d.txt': '' });
    const text = textOf(await createLsTool(runtime).execute('id', {}));
    expect(text).toBe('.hidden\nA.md\nb.txt\nc/\nlib/');
  });

  it('says an empty folder is empty', async () => {
    const runtime = await runtimeWith();
    await runtime.mkdir(`${runtime.workdir}/empty`);
    expect(textOf(await createLsTool(runtime).execute('id', { path: 'empty' }))).toBe('(empty is empty)');
  });

  it('refuses a file, saying it is not a directory', async () => {
    const runtime = await runtimeWith({ 'f.txt': 'x' });
    expect(await errorOf(createLsTool(runtime).execute('id', { path: 'f.txt' }))).toContain('f.txt is not a directory');
  });

  it('names a missing path', async () => {
    const runtime = await runtimeWith();
    expect(await errorOf(createLsTool(runtime).execute('id', { path: 'nowhere' }))).toContain('Path not found: nowhere');
  });

  it('applies the limit with a notice', async () => {
    const runtime = await runtimeWith({ a: '', b: '', c: '' });
    const text = textOf(await createLsTool(runtime).execute('id', { limit: 2 }));
    expect(text).toBe('a\nb\n\n[Showing 2 of 3 entries. Use limit=3 to see all.]');
  });
});
