import { describe, expect, it } from 'vitest';
import { chooseInstructionFiles, sourcesCovering } from './instruction-files';

describe('chooseInstructionFiles', () => {
  it('takes AGENTS.override.md over AGENTS.md over CLAUDE.md, at the root and in each folder', () => {
    const found = chooseInstructionFiles([
      'CLAUDE.md', 'AGENTS.md', 'AGENTS.override.md',
      'src/api/CLAUDE.md', 'src/api/AGENTS.md',
      'docs/CLAUDE.md',
      'lib/AGENTS.md', 'lib/AGENTS.override.md',
      'src/README.md',
    ]);
    expect(found.root).toEqual({ folder: '', path: 'AGENTS.override.md' });
    expect(found.nested).toEqual([
      { folder: 'docs', path: 'docs/CLAUDE.md' },
      { folder: 'lib', path: 'lib/AGENTS.override.md' },
      { folder: 'src/api', path: 'src/api/AGENTS.md' },
    ]);
    expect(chooseInstructionFiles(['AGENTS.md', 'CLAUDE.md']).root?.path).toBe('AGENTS.md');
    expect(chooseInstructionFiles(['CLAUDE.md']).root?.path).toBe('CLAUDE.md');
    expect(chooseInstructionFiles(['src/AGENTS.md']).root).toBeNull();
  });

  it('covers a file with its folders\' instructions, the nearest first, and not with a sibling folder\'s', () => {
    const { nested } = chooseInstructionFiles(['src/AGENTS.md', 'src/api/AGENTS.md', 'src/api/v2/AGENTS.md', 'src/apix/AGENTS.md']);
    expect(sourcesCovering(nested, 'src/api/v2/users.ts').map((s) => s.path)).toEqual(['src/api/v2/AGENTS.md', 'src/api/AGENTS.md', 'src/AGENTS.md']);
    expect(sourcesCovering(nested, 'src/apix.ts').map((s) => s.path)).toEqual(['src/AGENTS.md']);
    expect(sourcesCovering(nested, 'README.md')).toEqual([]);
  });
});
