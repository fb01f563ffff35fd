import { minimatch } from 'minimatch';
import { describe, expect, it } from 'vitest';
import { compileGlob } from './glob';

// The tools matched with minimatch(path, glob, { dot: true, matchBase: no "/" in glob }); the compiled form agrees.
const GLOBS = ['*.ts', '*', '**', '.*', '*.{md,txt}', 'src/**', 'src/**/*.ts', '**/*.test.ts', 'nested/*', 'a?c', '[A-Z]*',
  '!*.ts', '#comment', 'src/*.ts', './src/**', '*.d.ts', '**/README*', 'link*', '*/x/*', '{a,b}/**'];
const PATHS = ['a.ts', 'src/a.ts', 'src/deep/b.test.ts', '.env', 'src/.hidden', 'README.md', 'docs/README.txt', 'abc',
  'x/abc', 'Upper.ts', 'a/x/b', 'b/c', 'src', 'types.d.ts', 'link-dir', 'notes.txt', '#comment'];

describe('compileGlob', () => {
  it('matches exactly what minimatch with matchBase matched', () => {
    for (const glob of GLOBS) {
      const matches = compileGlob(glob);
      const pattern = glob.startsWith('./') ? glob.slice(2) : glob;
      for (const path of PATHS) {
        const expected = minimatch(path, pattern, { dot: true, matchBase: !pattern.includes('/') });
        expect(matches(path), `${glob} on ${path}`).toBe(expected);
      }
    }
  });
});
