import { InMemoryFs } from 'just-bash';
import { describe, expect, it } from 'vitest';
import { TOOL_WALK, type WalkPolicy } from '../../search/tree-walk';
import { MemoryTree } from '../memory-tree';
import { operandFiles, searchFiles, type OperandRules } from './operand-files';
import { Unsupported } from './unsupported';

/** Every file, no ignore files, links left out. */
const EVERYTHING: WalkPolicy = { ...TOOL_WALK, skipFolders: new Set(), ignoreFiles: [], skipSymlinks: true };

async function treeOf(files: Record<string, string>): Promise<MemoryTree> {
  const fs = new InMemoryFs();
  for (const [path, text] of Object.entries(files)) fs.writeFileSync(path, text);
  const tree = await MemoryTree.over(fs);
  if (!tree) throw new Error('just-bash changed the shape MemoryTree reads');
  return tree;
}

const FILES = { '/w/a.txt': 'a', '/w/src/b.ts': 'b', '/w/src/deep/c.ts': 'c' };
const walkAll: OperandRules = { walk: () => EVERYTHING };
const names = (found: { files: { name: string }[] }) => found.files.map((file) => file.name);

describe('operandFiles', () => {
  it('names the working directory\'s files by their path below it, a folder operand\'s by the operand joined to it', async () => {
    const tree = await treeOf(FILES);
    expect(names(operandFiles(tree, '/w', [''], walkAll))).toEqual(['a.txt', 'src/b.ts', 'src/deep/c.ts']);
    expect(names(operandFiles(tree, '/w', ['src'], walkAll))).toEqual(['src/b.ts', 'src/deep/c.ts']);
    expect(names(operandFiles(tree, '/w', ['src//'], walkAll))).toEqual(['src/b.ts', 'src/deep/c.ts']);
    expect(names(operandFiles(tree, '/w/src', ['..'], walkAll))).toEqual(['../a.txt', '../src/b.ts', '../src/deep/c.ts']);
    expect(names(operandFiles(tree, '/w', ['/'], walkAll))).toEqual(['/w/a.txt', '/w/src/b.ts', '/w/src/deep/c.ts']);
  });

  it('keeps a file operand as given, marked explicit, and files found by the walk unmarked', async () => {
    const tree = await treeOf(FILES);
    const found = operandFiles(tree, '/w', ['src/b.ts', 'src/deep'], walkAll);
    expect(found.files).toEqual([
      { absolute: '/w/src/b.ts', name: 'src/b.ts', explicit: true },
      { absolute: '/w/src/deep/c.ts', name: 'src/deep/c.ts', explicit: false },
    ]);
  });

  it('reports operands that do not exist, as given, and goes on with the rest', async () => {
    const tree = await treeOf(FILES);
    const found = operandFiles(tree, '/w', ['nope', 'a.txt', 'src/gone/'], walkAll);
    expect(found.missing).toEqual(['nope', 'src/gone/']);
    expect(names(found)).toEqual(['a.txt']);
  });

  it('names files by default for more than one operand or a folder, not for one file', async () => {
    const tree = await treeOf(FILES);
    expect(operandFiles(tree, '/w', ['a.txt'], walkAll).namedByDefault).toBe(false);
    expect(operandFiles(tree, '/w', ['a.txt', 'src/b.ts'], walkAll).namedByDefault).toBe(true);
    expect(operandFiles(tree, '/w', ['src'], walkAll).namedByDefault).toBe(true);
    expect(operandFiles(tree, '/w', ['a.txt', 'nope'], walkAll).namedByDefault).toBe(true);
  });

  it('asks `wanted` about named operands by their last segment, never about the working directory', async () => {
    const tree = await treeOf(FILES);
    const asked: [string, boolean][] = [];
    const rules: OperandRules = {
      walk: () => EVERYTHING,
      wanted: (name, isDir) => {
        asked.push([name, isDir]);
        return false;
      },
    };
    const found = operandFiles(tree, '/w', ['src/b.ts', 'src/deep'], rules);
    expect(asked).toEqual([['b.ts', false], ['deep', true]]);
    expect(found.files).toEqual([]);
    expect(found.namedByDefault).toBe(true); // a folder left out still counts as given
    expect(names(operandFiles(tree, '/w', [''], rules))).toEqual(['a.txt', 'src/b.ts', 'src/deep/c.ts']);
  });

  it('walks each folder operand with the policy the rules make', async () => {
    const tree = await treeOf(FILES);
    let made = 0;
    const rules: OperandRules = { walk: () => (made++, { ...EVERYTHING, maxDepth: 1 }) };
    expect(names(operandFiles(tree, '/w', ['', 'a.txt', 'src'], rules))).toEqual(['a.txt', 'a.txt', 'src/b.ts']);
    expect(made).toBe(2);
  });

  it('leaves a linked folder to just-bash when the walk keeps links', async () => {
    const fs = new InMemoryFs();
    for (const [path, text] of Object.entries(FILES)) fs.writeFileSync(path, text);
    await fs.symlink('src', '/w/link');
    const tree = await MemoryTree.over(fs);
    if (!tree) throw new Error('just-bash changed the shape MemoryTree reads');
    expect(names(operandFiles(tree, '/w', [''], walkAll))).toEqual(['a.txt', 'src/b.ts', 'src/deep/c.ts']);
    expect(() => operandFiles(tree, '/w', [''], { walk: () => ({ ...EVERYTHING, skipSymlinks: false }) })).toThrow(Unsupported);
  });
});

describe('searchFiles', () => {
  it('searches every file, or stops at the first that finds a line when asked; true when any found one', async () => {
    const tree = await treeOf(FILES);
    const { files } = operandFiles(tree, '/w', [''], walkAll);
    const searched = (firstOnly: boolean, hits: string[]) => {
      const seen: string[] = [];
      const found = searchFiles(tree, files, firstOnly, (file, bytes) => {
        seen.push(`${file.name}=${new TextDecoder().decode(bytes)}`);
        return hits.includes(file.name);
      });
      return { found, seen };
    };
    expect(searched(false, ['src/b.ts'])).toEqual({ found: true, seen: ['a.txt=a', 'src/b.ts=b', 'src/deep/c.ts=c'] });
    expect(searched(true, ['src/b.ts'])).toEqual({ found: true, seen: ['a.txt=a', 'src/b.ts=b'] });
    expect(searched(true, [])).toEqual({ found: false, seen: ['a.txt=a', 'src/b.ts=b', 'src/deep/c.ts=c'] });
  });
});
