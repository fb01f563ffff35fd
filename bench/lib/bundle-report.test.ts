// The bundle report's split: what the page loads up front (entries and their static imports, transitively) and
// what it loads on demand, largest first.
import { describe, expect, it } from 'vitest';
import { formatBundleReport, measureBundle, type BundleChunk } from '../../build/bundle-report';

// Pseudo-random text, so gzipped sizes stay in proportion to raw sizes.
function noise(length: number, seed = 1): string {
  let x = seed;
  return Array.from({ length }, () => String.fromCharCode(33 + ((x = (Math.imul(x, 1103515245) + 12345) & 0x7fffffff) % 90))).join('');
}

const chunk = (fileName: string, size: number, imports: string[] = [], isEntry = false): BundleChunk => ({
  fileName,
  isEntry,
  imports,
  code: noise(size, size),
});

describe('measureBundle', () => {
  it('counts the entry and its static imports as initial, everything else as lazy', () => {
    const report = measureBundle([
      chunk('index.js', 4000, ['shared.js'], true),
      chunk('shared.js', 2000, ['tiny.js']),
      chunk('tiny.js', 100),
      chunk('terminal.js', 3000),
      chunk('editor.js', 9000, ['shared.js']),
    ]);
    expect(report.initial.map((c) => c.fileName).sort()).toEqual(['index.js', 'shared.js', 'tiny.js']);
    expect(report.lazy.map((c) => c.fileName)).toEqual(['editor.js', 'terminal.js']);
    expect(report.initialGzipBytes).toBe(report.initial.reduce((sum, c) => sum + c.gzipBytes, 0));
    expect(report.initialBytes).toBe(6100);
  });

  it('says when the initial JavaScript is over the 150 kB budget', () => {
    const over = measureBundle([chunk('index.js', 200_000, [], true)]);
    expect(formatBundleReport(over)).toMatch(/OVER the 150 kB budget/);
    const within = measureBundle([chunk('index.js', 1000, [], true)]);
    expect(formatBundleReport(within)).toMatch(/within the 150 kB budget/);
  });
});
