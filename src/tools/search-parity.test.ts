// The grep and find tools give the same output, byte for byte, whether the runtime searches itself (Runtime.search,
// run where the files are) or the tools walk it through readdir and readFile as they always did.
import { afterAll, describe, expect, it } from 'vitest';
import type { AgentToolResult } from '../agent/types';
import { createEmbeddedRuntimeInWorker } from '../runtime/embedded/client';
import { createEmbeddedRuntime } from '../runtime/embedded';
import { createInMemoryWorker } from '../runtime/testing/in-memory-worker';
import { createWebContainerDouble, type WebContainerDouble } from '../runtime/testing/webcontainer-double';
import { createWebContainerRuntime } from '../runtime/webcontainer/webcontainer';
import type { Runtime } from '../runtime/types';
import { createFindTool, type FindArguments } from './find';
import { createGrepTool, type GrepArguments } from './grep';
import { textOf } from './testing/tool-kit';

const encoder = new TextEncoder();
const bytes = (...parts: (string | number[])[]) => {
  const chunks = parts.map((part) => (typeof part === 'string' ? encoder.encode(part) : new Uint8Array(part)));
  const out = new Uint8Array(chunks.reduce((n, chunk) => n + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
};

const TREE: Record<string, string | Uint8Array> = {
  '.gitignore': 'dist/\n*.log\n/build\n!keep.log\nsecret-*\n',
  '.env': 'TOKEN=helper\n',
  'README.md': '# Helper\nUse the helper.\n\nhelper at the end',
  'keep.log': 'helper kept by a negation\n',
  'debug.log': 'helper ignored\n',
  'build/out.js': 'helper in the anchored build folder\n',
  'src/build/in.js': 'helper in a build folder that is not anchored\n',
  'src/main.ts': 'import { helper } from "./util";\nconsole.log(helper());\nconst x = 1;\nconst y = helper(x);\n',
  'src/util.ts': 'export function helper() {\n  return 42;\n}\n',
  'src/crlf.ts': 'line one\r\nhelper two\r\nline three\r\n',
  'src/bom.ts': '\uFEFFhelper with a byte-order mark\n',
  'src/empty.ts': '',
  'src/secret-key.ts': 'helper secret\n',
  'src/nested/.gitignore': '*.gen.ts\n',
  'src/nested/a.gen.ts': 'helper generated\n',
  'src/nested/b.ts': 'ünïcödé helper ✓\n',
  'src/deep/er/still/helper.ts': 'export const helper = 1;\n',
  'dist/bundle.js': 'function helper(){}\n',
  'node_modules/lib/index.js': 'module.exports.helper = 1;\n',
  '.git/config': 'helper = true\n',
  'long.txt': `short\n${'é'.repeat(499)}helper${'x'.repeat(600)}\n${'y'.repeat(499)}\u{1F600}helper\n`,
  'many.txt': Array.from({ length: 400 }, (_, i) => (i % 3 === 0 ? `match helper ${i}` : `other ${i}`)).join('\n'),
  'binary.bin': bytes([1, 2, 0, 3], 'helper\n'),
  'late-nul.txt': bytes('helper before\n', 'z'.repeat(9000), [0], '\nhelper after\n'),
  'latin1.txt': bytes('helper caf', [0xe9], '\n'),
  'Upper.TS': 'HELPER in capitals\nHelper mixed\n',
};

const GREPS: GrepArguments[] = [
  { pattern: 'helper' },
  { pattern: 'helper', limit: 3 },
  { pattern: 'helper', limit: 1000 },
  { pattern: 'helper', context: 1 },
  { pattern: 'helper', context: 3, path: 'src' },
  { pattern: 'match', context: 2, path: 'many.txt', limit: 10 },
  { pattern: 'HELPER', ignoreCase: true },
  { pattern: 'helper()', literal: true },
  { pattern: 'helper\\(\\)' },
  { pattern: '^helper' },
  { pattern: 'helper$' },
  { pattern: 'two$' },
  { pattern: '^$' },
  { pattern: '\\bhelper\\b', glob: '*.ts' },
  { pattern: 'helper', glob: 'src/**/*.ts' },
  { pattern: 'helper', glob: '*.{md,txt}' },
  { pattern: 'helper', path: 'src/nested' },
  { pattern: 'helper', path: 'src/nested/a.gen.ts' },
  { pattern: 'helper', path: 'debug.log' },
  { pattern: 'helper', path: 'binary.bin' },
  { pattern: 'nothing-matches-this' },
  { pattern: 'nothing-matches-this', path: 'src' },
  { pattern: '(?<!use )helper\\b' },
  { pattern: '[^a-z]helper' },
  { pattern: 'x\\s*helper|helper\\s*x', ignoreCase: true },
  { pattern: 'é+helper' },
  { pattern: '\\p{Emoji_Presentation}helper' },
  { pattern: 'helper', path: 'link-file.ts' },
];

const FINDS: FindArguments[] = [
  { pattern: '*.ts' },
  { pattern: '*' },
  { pattern: '**' },
  { pattern: '.*' },
  { pattern: '*.log' },
  { pattern: 'src/**' },
  { pattern: 'nested/*', path: 'src' },
  { pattern: '*.ts', limit: 2 },
  { pattern: '*.rs' },
  { pattern: 'link*' },
];

/** The same runtime without Runtime.search: the tools then walk it as before. */
function withoutSearch(runtime: Runtime): Runtime {
  return new Proxy(runtime, {
    get: (target, key) => {
      if (key === 'search') return undefined;
      const value = Reflect.get(target, key, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

async function seeded(runtime: Runtime): Promise<Runtime> {
  for (const [path, content] of Object.entries(TREE)) await runtime.writeFile(path, content);
  const links = await runtime.exec('ln -s src/deep link-dir && ln -s src/util.ts link-file.ts && ln -s missing.ts dangling.ts');
  expect(links.exitCode).toBe(0);
  return runtime;
}

async function outcome(result: Promise<AgentToolResult>): Promise<{ text?: string; details?: unknown; error?: string }> {
  try {
    const done = await result;
    return { text: textOf(done), details: done.details };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

const runtimes: Runtime[] = [];
const containers: WebContainerDouble[] = [];
afterAll(async () => {
  for (const runtime of runtimes) await runtime.dispose();
  for (const container of containers) container.teardown();
});

async function webContainerRuntime(): Promise<Runtime> {
  const container = await createWebContainerDouble();
  containers.push(container);
  return createWebContainerRuntime(container);
}

describe.each([
  ['embedded in process', () => createEmbeddedRuntime()],
  ['embedded through the worker protocol', () => createEmbeddedRuntimeInWorker({ createWorker: () => createInMemoryWorker() })],
  ['of the WebContainer (a Node double)', webContainerRuntime],
])('search parity, runtime %s', (_name, create) => {
  const ready = (async () => {
    const runtime = await seeded(await create());
    runtimes.push(runtime);
    expect(runtime.search).toBeTypeOf('function');
    return runtime;
  })();

  it.each(GREPS.map((args) => [JSON.stringify(args), args] as const))('grep %s', async (_label, args) => {
    const runtime = await ready;
    const walked = await outcome(createGrepTool(withoutSearch(runtime)).execute('id', args));
    const searched = await outcome(createGrepTool(runtime).execute('id', args));
    expect(searched).toEqual(walked);
    expect(walked.error ?? walked.text).not.toBe('');
  });

  it.each(FINDS.map((args) => [JSON.stringify(args), args] as const))('find %s', async (_label, args) => {
    const runtime = await ready;
    const walked = await outcome(createFindTool(withoutSearch(runtime)).execute('id', args));
    const searched = await outcome(createFindTool(runtime).execute('id', args));
    expect(searched).toEqual(walked);
  });
});

// The one deliberate difference: below a symlinked folder, the walk through readdir found nothing (just-bash's readdir
// does not follow a link in the middle of a path), while the runtime's search lists and searches it like its target.
describe('searching through a symlinked folder', () => {
  it('finds what the target folder holds, under the link', async () => {
    const runtime = await seeded(createEmbeddedRuntime());
    runtimes.push(runtime);
    const viaLink = textOf(await createFindTool(runtime).execute('id', { pattern: '*', path: 'link-dir' }));
    const direct = textOf(await createFindTool(runtime).execute('id', { pattern: '*', path: 'src/deep' }));
    expect(viaLink).toBe(direct.replaceAll('src/deep/', 'link-dir/'));
    expect(viaLink).toBe('link-dir/er/\nlink-dir/er/still/\nlink-dir/er/still/helper.ts');
    const grep = textOf(await createGrepTool(runtime).execute('id', { pattern: 'helper', path: 'link-dir' }));
    expect(grep).toBe('link-dir/er/still/helper.ts:1: export const helper = 1;');
  });
});

describe('search parity, the tree itself', () => {
  it('exercises what it means to: ignore rules, binary and non-UTF-8 files, the limit, cut lines, CRLF', async () => {
    const runtime = await seeded(createEmbeddedRuntime());
    runtimes.push(runtime);
    const grep = createGrepTool(runtime);
    const all = textOf(await grep.execute('id', { pattern: 'helper', limit: 1000 }));
    expect(all).toContain('keep.log:1: helper kept by a negation');
    expect(all).toContain('src/build/in.js:1:');
    expect(all).toContain('src/crlf.ts:2: helper two\n');
    expect(all).toContain('late-nul.txt:1: helper before');
    expect(all).toContain('[line cut at 500 chars]');
    for (const skipped of ['debug.log', 'build/out.js', 'secret-key', 'a.gen.ts', 'dist/', 'node_modules', '.git/', 'binary.bin', 'latin1.txt']) {
      expect(all).not.toContain(skipped);
    }
    expect(textOf(await grep.execute('id', { pattern: 'helper' }))).toContain('[Stopped at 100 matches.');
  });
});
