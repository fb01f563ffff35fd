import { describe, expect, it } from 'vitest';
import { displayPath, resolvePath } from './paths';

describe('resolvePath', () => {
  it('resolves relative paths against the workdir', () => {
    expect(resolvePath('/home/project', 'src/a.ts')).toBe('/home/project/src/a.ts');
    expect(resolvePath('/home/project', './src/../b.ts')).toBe('/home/project/b.ts');
    expect(resolvePath('/home/project', '.')).toBe('/home/project');
    expect(resolvePath('/home/project', '')).toBe('/home/project');
  });

  it('keeps absolute paths, normalized', () => {
    expect(resolvePath('/home/project', '/tmp//x/./y.log')).toBe('/tmp/x/y.log');
    expect(resolvePath('/home/project', '../other/z')).toBe('/home/other/z');
  });
});

describe('displayPath', () => {
  it('is relative inside the workdir and absolute outside it', () => {
    expect(displayPath('/home/project', '/home/project/src/a.ts')).toBe('src/a.ts');
    expect(displayPath('/home/project', '/home/project')).toBe('.');
    expect(displayPath('/home/project', '/home/projectx/a')).toBe('/home/projectx/a');
    expect(displayPath('/home/project', '/tmp/x.log')).toBe('/tmp/x.log');
  });
});
