import { describe, expect, it } from 'vitest';
import { createEmbeddedRuntime } from '../../runtime/embedded';
import { Workspace } from '../../runtime/workspace/workspace';
import { WorkspaceConventionsCache } from './workspace-conventions';

const skill = (name: string, description: string) => `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n`;

describe('WorkspaceConventionsCache', () => {
  it('finds the skills again after a change under .agents/, not after a change elsewhere', async () => {
    const runtime = createEmbeddedRuntime({ files: { '.agents/skills/lint/SKILL.md': skill('lint', 'Lint the code.'), 'src/a.ts': 'a\n' } });
    const workspace = Workspace.of(runtime);
    const cache = new WorkspaceConventionsCache(workspace);
    const first = await cache.current();
    expect(first.skills.map((s) => s.description)).toEqual(['Lint the code.']);
    await workspace.writeFile('src/a.ts', 'b\n');
    expect(await cache.current()).toBe(first); // the same answer, not found again
    await runtime.exec("printf -- '---\\nname: lint\\ndescription: Lint it all.\\n---\\n' > .agents/skills/lint/SKILL.md && mkdir -p .claude/commands && echo 'Review $1' > .claude/commands/review.md");
    const after = await cache.current();
    expect(after.skills.map((s) => s.description)).toEqual(['Lint it all.']);
    expect(after.templates.map((t) => t.name)).toEqual(['review']);
    cache.dispose();
  });
});
