import { describe, expect, it } from 'vitest';
import { createEmbeddedRuntime } from '../../runtime/embedded';
import type { SearchRequest } from '../../runtime/search-types';
import { Workspace } from '../../runtime/workspace/workspace';
import { ProjectInstructions } from './project-instructions';

function project(files: Record<string, string>) {
  const runtime = createEmbeddedRuntime({ files });
  const searches: SearchRequest[] = [];
  const search = runtime.search!.bind(runtime);
  runtime.search = (request) => {
    searches.push(request);
    return search(request);
  };
  const workspace = Workspace.of(runtime);
  return { runtime, workspace, searches, instructions: new ProjectInstructions(workspace) };
}

describe('ProjectInstructions', () => {
  it('finds every folder\'s file in one runtime-side search, leaving out node_modules and .git', async () => {
    const { instructions, searches } = project({
      'AGENTS.md': 'Root rules.',
      'src/api/AGENTS.md': 'API rules.',
      'node_modules/pkg/AGENTS.md': 'not ours',
      '.git/AGENTS.md': 'not ours',
      'src/api/handler.ts': 'export {}',
    });
    const prompt = await instructions.forPrompt();
    expect(prompt).toEqual({ root: { path: 'AGENTS.md', text: 'Root rules.' }, nested: ['src/api/AGENTS.md'] });
    expect(instructions.files).toEqual(['AGENTS.md', 'src/api/AGENTS.md']);
    expect(searches).toHaveLength(1);
  });

  it('is kept while nothing that matters changes, and read again when an instruction file changes mid-session', async () => {
    const { instructions, workspace, runtime, searches } = project({ 'AGENTS.md': 'Use tabs.', 'src/a.ts': '1' });
    expect((await instructions.forPrompt()).root?.text).toBe('Use tabs.');
    await workspace.writeFile('src/a.ts', '2');
    await instructions.forPrompt();
    expect(searches).toHaveLength(1);

    await workspace.writeFile('AGENTS.md', 'Use spaces.'); // the agent's edit or the editor's save
    expect((await instructions.forPrompt()).root?.text).toBe('Use spaces.');

    await runtime.exec('mkdir -p src/web && echo "Web rules." > src/web/AGENTS.md'); // the terminal
    expect((await instructions.forPrompt()).nested).toEqual(['src/web/AGENTS.md']);
    expect(await instructions.read('src/web/AGENTS.md')).toBe('Web rules.');

    await runtime.exec('rm -r src/web');
    expect((await instructions.forPrompt()).nested).toEqual([]);
    await runtime.exec('echo "Override." > AGENTS.override.md');
    expect((await instructions.forPrompt()).root).toEqual({ path: 'AGENTS.override.md', text: 'Override.' });
  });

  it('cuts a root file over 32 KiB and says where the rest is', async () => {
    const { instructions } = project({ 'CLAUDE.md': `${'rule\n'.repeat(10_000)}last rule` });
    const text = (await instructions.forPrompt()).root?.text ?? '';
    expect(new TextEncoder().encode(text).length).toBeLessThanOrEqual(32 * 1024);
    expect(text).not.toContain('last rule');
    expect(text).toMatch(/cut here: instructions may take 32 KiB in all; read CLAUDE\.md for the rest\)$/);
  });
});
