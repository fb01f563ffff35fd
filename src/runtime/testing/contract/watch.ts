// The contract's watch cases (runtime-contract.ts): changes reported relative to the workdir, and (for runtimes that
// promise it) a command's changes reported before its result.

import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../types';
import { recordWatch } from './record-watch';

/** Registers the watch cases; `fresh` makes the runtime under test (the suite disposes it). */
export function describeWatchContract(fresh: () => Promise<Runtime>): void {
  describe('watch', () => {
    it('reports writes through the runtime and by commands, relative to the workdir', async () => {
      const rt = await fresh();
      const watch = recordWatch(rt);
      await rt.writeFile('by-method.txt', 'x');
      await watch.until('by-method.txt');
      await rt.exec('mkdir -p out && echo y > out/by-command.txt');
      await watch.until('out/by-command.txt');
      watch.stop();
    });
  });
}

/** Registers the case for runtimes whose changes reach the watchers before exec resolves (and have flushChanges). */
export function describeChangesBeforeResultContract(fresh: () => Promise<Runtime>): void {
  describe('changes before results', () => {
    it('a command\'s changes reach the watchers before its exec resolves', async () => {
      const rt = await fresh();
      const seen: string[] = [];
      const stop = rt.watch((paths) => seen.push(...paths));
      await rt.exec('mkdir -p made && echo x > made/by-command.txt');
      expect(seen).toContain('made/by-command.txt');
      await rt.writeFile('by-method.txt', 'x');
      await rt.flushChanges!();
      expect(seen).toContain('by-method.txt');
      stop();
    });
  });
}
