// The contract's git baseline cases (runtime-contract.ts): the imported files as the first commit, read only when git
// first runs, and a repository the workspace already has kept.

import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../types';

/** Registers the setBaseline cases, for runtimes with git. */
export function describeBaselineContract(fresh: () => Promise<Runtime>): void {
  describe('setBaseline (optional)', () => {
    const imported: Record<string, string> = { 'app.js': 'const greeting = "Hello";\n', 'lib/util.js': 'exports.noop = () => {};\n' };
    const baselineOf = (name: string, files: Record<string, string>) => {
      const baseline = {
        name,
        reads: 0,
        files: async () => {
          baseline.reads++;
          return Object.entries(files).map(([path, content]) => ({ path, data: new TextEncoder().encode(content) }));
        },
      };
      return baseline;
    };
    const importWith = async (rt: Runtime, files: Record<string, string>) => {
      const { zipSync } = await import('fflate');
      await rt.importZip(zipSync(Object.fromEntries(Object.entries(files).map(([p, c]) => [p, new TextEncoder().encode(c)]))));
    };

    it('makes the imported files the first commit: status is clean and git diff shows exactly an edit', async () => {
      const rt = await fresh();
      await importWith(rt, imported);
      await rt.setBaseline!(baselineOf('greeter.zip', imported));
      expect(await rt.exec('git status')).toEqual({ output: 'On branch main\nnothing to commit, working tree clean\n', exitCode: 0 });
      expect((await rt.exec('git log --oneline')).output).toMatch(/^[0-9a-f]{7} Imported greeter\.zip\n$/);
      expect((await rt.exec('git log')).output).toMatch(/^Author: Conch <conch@localhost>$/m);
      await rt.writeFile('app.js', 'const greeting = "Hi";\n');
      const diff = await rt.exec('git diff');
      expect(diff.exitCode).toBe(0);
      expect(diff.output).toMatch(/^diff --git a\/app\.js b\/app\.js\n/);
      expect(diff.output.split('\n').filter((line) => /^[-+](?![-+])/.test(line))).toEqual(['-const greeting = "Hello";', '+const greeting = "Hi";']);
    });

    it('diffs a restored workspace against the baseline, reading the baseline only when git first runs', async () => {
      const rt = await fresh();
      const baseline = baselineOf('repo.zip', imported);
      await importWith(rt, { ...imported, 'app.js': 'const greeting = "Hey";\n', 'new.txt': 'added\n' });
      await rt.setBaseline!(baseline);
      await rt.exec('ls');
      expect(baseline.reads).toBe(0);
      expect((await rt.exec('git status --short')).output).toBe(' M app.js\n?? new.txt\n');
      expect((await rt.exec('git log --oneline')).output).toMatch(/Imported repo\.zip/);
      expect(baseline.reads).toBe(1);
    });

    it('keeps a repository the workspace already has, and makes none without a baseline', async () => {
      const rt = await fresh();
      await importWith(rt, imported);
      await rt.setBaseline!(null);
      expect((await rt.exec('git status')).output).toMatch(/not a git repository/);
      await rt.exec('git init -b trunk && git add -A && git commit -m own');
      const baseline = baselineOf('again.zip', imported);
      await rt.setBaseline!(baseline);
      expect((await rt.exec('git log --oneline')).output).toMatch(/^[0-9a-f]{7} own\n$/);
      expect(baseline.reads).toBe(0);
    });
  });
}
