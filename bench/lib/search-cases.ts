// The search bench's cases, run the same way in Node and in a Chromium page: each pattern through the grep tool and
// through `rg` in the sandbox's shell, plus the find tool; each has the ripgrep command it is compared with on disk.
import type { Runtime } from '../../src/runtime/types';
import { createFindTool, createGrepTool } from '../../src/tools';
import { MARKER } from './big-repo';

export type SearchCase = {
  label: string;
  /** How Conch runs it. */
  run: { tool: 'grep'; args: { pattern: string; ignoreCase?: boolean } } | { tool: 'find'; args: { pattern: string } } | { tool: 'bash'; command: string };
  /** The ripgrep command line (arguments) it is compared with, run in the repo folder on disk. */
  ripgrep: string[];
};

const PATTERNS = [
  { name: 'rare literal', pattern: MARKER, ignoreCase: false },
  { name: 'case-insensitive regex', pattern: 'deprecated\\s+api', ignoreCase: true },
  { name: 'alternation + class', pattern: '(retry|backoff)Count[0-9]{2}', ignoreCase: false },
];

const rgArgs = (pattern: string, ignoreCase: boolean) => ['-n', ...(ignoreCase ? ['-i'] : []), pattern];
const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

export const SEARCH_CASES: SearchCase[] = [
  ...PATTERNS.map(({ name, pattern, ignoreCase }): SearchCase => ({
    label: `grep tool, ${name}`,
    run: { tool: 'grep', args: { pattern, ...(ignoreCase ? { ignoreCase } : {}) } },
    ripgrep: rgArgs(pattern, ignoreCase),
  })),
  ...PATTERNS.map(({ name, pattern, ignoreCase }): SearchCase => ({
    label: `rg in bash, ${name}`,
    run: { tool: 'bash', command: `rg ${rgArgs(pattern, ignoreCase).map(quote).join(' ')}` },
    ripgrep: rgArgs(pattern, ignoreCase),
  })),
  { label: 'find tool, *.ts', run: { tool: 'find', args: { pattern: '*.ts' } }, ripgrep: ['--files', '-g', '*.ts'] },
];

/** Runs one case on `runtime`; returns how many lines it found, so both sides can be seen to agree. */
export async function runCase(runtime: Runtime, searchCase: SearchCase): Promise<number> {
  const run = searchCase.run;
  switch (run.tool) {
    case 'grep': {
      const result = await createGrepTool(runtime).execute('bench', run.args);
      return (result.details as { matches: number }).matches;
    }
    case 'find': {
      const result = await createFindTool(runtime).execute('bench', run.args);
      return (result.details as { count: number }).count;
    }
    case 'bash': {
      const result = await runtime.exec(run.command);
      if (result.exitCode !== 0) throw new Error(`${run.command} exited ${result.exitCode}: ${result.output.slice(0, 300)}`);
      return result.output.split('\n').filter(Boolean).length;
    }
  }
}

/**
 * Milliseconds of each of `runs` timed runs after one warm-up, and the lines the last run found. With `afterChange`,
 * a file is written before each run (untimed), so each search starts without the runtime's index of the tree.
 */
export async function timeCase(runtime: Runtime, searchCase: SearchCase, runs: number, afterChange = false): Promise<{ ms: number[]; found: number }> {
  let found = await runCase(runtime, searchCase);
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    if (afterChange) await runtime.writeFile('bench-touched.txt', `change ${i}\n`);
    const started = performance.now();
    found = await runCase(runtime, searchCase);
    ms.push(performance.now() - started);
  }
  if (afterChange) await runtime.rm('bench-touched.txt');
  return { ms, found };
}

/** The cases worth timing again after a change: the tools (a command after a change also pays the page's snapshot). */
export const AFTER_CHANGE_CASES = SEARCH_CASES.flatMap((searchCase, index) => (searchCase.run.tool === 'bash' ? [] : [index]));
