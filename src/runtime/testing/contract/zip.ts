// The contract's snapshot cases (runtime-contract.ts): exportZip and importZip, their exclude list and bad zips.

import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../types';
import { allBytes, text } from './bytes';

/** Registers the zip snapshot cases; `fresh` makes the runtime under test (the suite disposes it). */
export function describeZipContract(fresh: () => Promise<Runtime>): void {
  describe('snapshots', () => {
    it('round-trips the workspace through a zip, binary included, node_modules left out', async () => {
      const rt = await fresh();
      await rt.writeFile('src/index.ts', 'export const x = 1;\n');
      await rt.writeFile('assets/all.bin', allBytes());
      await rt.writeFile('node_modules/dep/index.js', 'module.exports = 1;');
      await rt.writeFile('.hidden', 'dot');
      await rt.mkdir('empty');
      const zip = await rt.exportZip();

      const names = Object.keys(unzipSync(zip));
      expect(names).toContain('src/index.ts');
      expect(names).toContain('.hidden');
      expect(names.some((n) => n.startsWith('node_modules'))).toBe(false);
      expect(names.some((n) => n.startsWith('/') || n.startsWith(rt.workdir.slice(1)))).toBe(false);

      await rt.writeFile('extra.txt', 'not in the snapshot');
      await rt.importZip(zip);
      expect(await rt.stat('extra.txt')).toBeNull(); // replace, not merge
      expect(await rt.stat('node_modules')).toBeNull();
      expect(text(await rt.readFile('src/index.ts'))).toBe('export const x = 1;\n');
      expect([...(await rt.readFile('assets/all.bin'))]).toEqual([...allBytes()]);
      expect(text(await rt.readFile('.hidden'))).toBe('dot');
      expect((await rt.stat('empty'))?.type).toBe('dir');
    });

    it('honours an explicit exclude list', async () => {
      const rt = await fresh();
      await rt.writeFile('keep.txt', 'k');
      await rt.writeFile('.git/HEAD', 'ref');
      await rt.writeFile('node_modules/a.js', 'a');
      const names = Object.keys(unzipSync(await rt.exportZip({ exclude: ['.git/**'] })));
      expect(names).toContain('keep.txt');
      expect(names).toContain('node_modules/a.js');
      expect(names.some((n) => n.startsWith('.git'))).toBe(false);
    });

    it('rejects a zip entry that escapes the workspace and changes nothing', async () => {
      const rt = await fresh();
      await rt.writeFile('safe.txt', 'still here');
      const { zipSync } = await import('fflate');
      const evil = zipSync({ '../escape.txt': new TextEncoder().encode('x') });
      await expect(rt.importZip(evil)).rejects.toThrow(/outside the workspace/);
      expect(text(await rt.readFile('safe.txt'))).toBe('still here');
    });

    it('imports a zip over a big workspace: nothing of the old one is left, every new file is there', async () => {
      const rt = await fresh();
      for (let i = 0; i < 300; i++) await rt.writeFile(`old/d${i % 7}/f${i}.txt`, `old ${i}`);
      await rt.writeFile('top.txt', 'old top');
      const { zipSync } = await import('fflate');
      const files: Record<string, Uint8Array> = {};
      for (let i = 0; i < 300; i++) files[`new/d${i % 5}/f${i}.txt`] = new TextEncoder().encode(`new ${i}`);
      await rt.importZip(zipSync(files));
      expect((await rt.readdir('.')).map((e) => e.name)).toEqual(['new']);
      expect((await rt.readdir('new')).map((e) => e.name)).toEqual(['d0', 'd1', 'd2', 'd3', 'd4']);
      expect(text(await rt.readFile('new/d3/f298.txt'))).toBe('new 298');
      expect((await rt.exec('find new -type f | wc -l')).output.trim()).toBe('300');
    });
  });
}
