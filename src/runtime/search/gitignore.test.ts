import ignore from 'ignore';
import { describe, expect, it } from 'vitest';
import { GitignoreRules } from './gitignore';

// The tools skipped what the `ignore` package said before the search moved into the runtime; the compiled rules must
// agree with it on every path a walk can reach (a path is only tested once its parent folders were not ignored).
const IGNORE_FILES = [
  'dist/\nnode_modules/\n*.log\n',
  '/build\ncoverage/\n.env*\n!.env.example\n',
  '*.py[co]\n__pycache__/\n[Tt]emp*\n',
  'src/generated/\ndocs/*.txt\n!docs/keep.txt\n',
  '**/tmp\na/**/b\nfoo/**\n',
  '# a comment\n\\#hash\n\\!bang\n  \ntrailing   \nescaped\\ \n',
  '*\n!*/\n!*.ts\n',
  'a?c\n*.min.*\n[!a-m]*.md\n[[:digit:]]*\n',
  'deep/nested/dir/\n/root-only.txt\nsub/\n!sub/keep/\n',
  '*.LOG\nREADME\n',
  '***/stars\nx/***\n',
  'lib\n!lib/index.ts\n',
];

const PATHS: [string, boolean][] = [];
const NAMES = ['dist', 'node_modules', 'app.log', 'build', 'coverage', '.env', '.env.local', '.env.example', 'a.pyc',
  'a.py', '__pycache__', 'Temp1', 'temp', 'src', 'generated', 'docs', 'keep.txt', 'notes.txt', 'tmp', 'a', 'b', 'foo',
  'x', '#hash', '!bang', 'trailing', 'escaped ', 'main.ts', 'abc', 'a.min.js', 'z.md', 'b.md', '7up', 'deep', 'nested',
  'dir', 'root-only.txt', 'sub', 'keep', 'APP.log', 'readme', 'stars', 'lib', 'index.ts'];

// A tree three levels deep over those names, folders and files alike.
for (const first of NAMES) {
  PATHS.push([first, true], [first, false]);
  for (const second of ['src', 'docs', 'a', 'b', 'deep', 'sub', 'lib', 'x', 'foo', 'nested']) {
    PATHS.push([`${first}/${second}`, true]);
    for (const third of ['b', 'keep.txt', 'index.ts', 'dir', 'app.log', 'tmp', 'keep', 'stars', 'z.md']) {
      PATHS.push([`${first}/${second}/${third}`, true], [`${first}/${second}/${third}`, false]);
    }
  }
}

function walkVerdicts(rules: GitignoreRules): Map<string, boolean> {
  const ignored = new Map<string, boolean>();
  for (const [path, isDir] of PATHS) {
    const parent = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : null;
    const parentIgnored = parent !== null && ignored.get(`${parent}/`) === true;
    const name = path.slice(path.lastIndexOf('/') + 1);
    ignored.set(isDir ? `${path}/` : path, parentIgnored || rules.match('/base', `/base/${path}`, name, isDir) === 'ignored');
  }
  return ignored;
}

describe('GitignoreRules', () => {
  for (const ignoreCase of [true, false]) {
    for (const text of IGNORE_FILES) {
      it(`agrees with the ignore package (ignorecase ${ignoreCase}) on ${JSON.stringify(text)}`, () => {
        const reference = ignore({ ignorecase: ignoreCase }).add(text);
        const mine = walkVerdicts(new GitignoreRules(text, ignoreCase));
        const disagreements = PATHS.filter(([path, isDir]) => {
          const key = isDir ? `${path}/` : path;
          return reference.ignores(key) !== mine.get(key);
        }).map(([path, isDir]) => `${path}${isDir ? '/' : ''}`);
        expect(disagreements).toEqual([]);
      });
    }
  }

  it('lets the last matching rule decide, a negation re-including', () => {
    const rules = new GitignoreRules('*.log\n!keep.log\n', false);
    expect(rules.match('/', '/a/app.log', 'app.log', false)).toBe('ignored');
    expect(rules.match('/', '/a/keep.log', 'keep.log', false)).toBe('included');
    expect(rules.match('/', '/a/app.ts', 'app.ts', false)).toBeNull();
  });
});
