import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { createEmbeddedRuntime } from '../../../runtime/embedded';
import { Workspace } from '../../../runtime/workspace/workspace';
import { createPersonalAgentsStore } from '../../../store';
import { SubagentDefinitions } from './definitions.svelte';

const bytes = (text: string) => new TextEncoder().encode(text);
const AGENT = (name: string, description: string, tools = 'read, grep') => `---\nname: ${name}\ndescription: ${description}\ntools: ${tools}\n---\nYou are ${name}.\n`;

function definitionsWith(files: Record<string, string>, prefix = `t${Math.random()}-`) {
  const workspace = new Workspace();
  const runtime = createEmbeddedRuntime({ files });
  workspace.attach(runtime);
  return { runtime, prefix, definitions: new SubagentDefinitions({ workspace, openStore: async () => createPersonalAgentsStore(prefix) }) };
}

describe('SubagentDefinitions', () => {
  it("finds the workspace's in .agents/agents and .claude/agents only, and offers the valid ones", async () => {
    const { definitions, runtime } = definitionsWith({
      '.agents/agents/reviewer.md': AGENT('reviewer', 'Reviews diffs.'),
      '.claude/agents/tester.md': AGENT('tester', 'Runs tests.', 'Read, Bash'),
      '.claude/agents/bad.md': AGENT('bad', 'Uses a tool Conch lacks.', 'WebFetch'),
      'docs/agents/other.md': AGENT('other', 'Not a definition folder.'),
    });
    expect((await definitions.valid()).map((d) => [d.name, d.tools])).toEqual([['reviewer', ['read', 'grep']], ['tester', ['read', 'bash']]]);
    expect(definitions.list.invalid.map((i) => [i.path, i.name])).toEqual([['.claude/agents/bad.md', 'bad']]);

    await runtime.exec('rm .agents/agents/reviewer.md');
    expect((await definitions.valid()).map((d) => d.name)).toEqual(['tester']);
  });

  it("keeps the person's own across openings, replaces one of the same file name, and forgets a removed one", async () => {
    const { definitions, prefix } = definitionsWith({ '.agents/agents/reviewer.md': AGENT('reviewer', 'The repo’s.') });
    expect(await definitions.importFiles([
      { name: 'planner.md', data: bytes(AGENT('planner', 'Plans.')) },
      { name: 'reviewer.md', data: bytes(AGENT('reviewer', 'Mine.')) },
    ])).toBe(2);
    expect(definitions.list.valid.map((d) => [d.name, d.source, d.path])).toEqual([['reviewer', 'workspace', '.agents/agents/reviewer.md'], ['planner', 'personal', 'personal/planner.md']]);
    expect(definitions.list.invalid[0]).toMatchObject({ path: 'personal/reviewer.md', source: 'personal' });
    expect(definitions.list.invalid[0].reason).toContain('.agents/agents/reviewer.md');

    await definitions.importFiles([{ name: 'planner.md', data: bytes(AGENT('planner', 'Plans better.')) }]);
    await definitions.remove('personal/reviewer.md');

    const reopened = definitionsWith({}, prefix).definitions;
    expect((await reopened.valid()).map((d) => [d.name, d.description])).toEqual([['planner', 'Plans better.']]);
    expect(reopened.list.invalid).toEqual([]);
  });

  it('refuses a file that is not Markdown text, saying why, and stores nothing of that import', async () => {
    const { definitions } = definitionsWith({});
    expect(await definitions.importFiles([{ name: 'ok.md', data: bytes(AGENT('ok', 'Fine.')) }, { name: 'notes.txt', data: bytes('x') }])).toBeNull();
    expect(definitions.error).toMatch(/notes\.txt is not a Markdown file/);
    expect(await definitions.importFiles([{ name: 'bin.md', data: new Uint8Array([0xff, 0xfe, 0x00]) }])).toBeNull();
    expect(definitions.error).toMatch(/bin\.md is not UTF-8 text/);
    expect(await definitions.valid()).toEqual([]);
  });
});
