import { describe, expect, it } from 'vitest';
import { parseAgentDefinition } from './parse-agent-definition';
import { definitionItems, listDefinitions } from './definition-list';

const file = (front: string, body = 'You review code.\n') => `---\n${front}\n---\n\n${body}`;
const parse = (text: string, path = '.agents/agents/reviewer.md') => parseAgentDefinition({ path, text, source: 'workspace' });
const reason = (text: string) => {
  const parsed = parse(text);
  if (parsed.ok) throw new Error('expected an invalid definition');
  return parsed.invalid.reason;
};

describe('parseAgentDefinition', () => {
  it('reads name, description, a YAML list of tools, the model and the body as its system prompt', () => {
    const parsed = parse(file('name: reviewer\ndescription: "Reviews a diff: style, bugs."\ntools:\n  - read\n  - grep\nmodel: claude-haiku-4-5', '# Reviewer\n\nYou review code.\n'));
    expect(parsed).toEqual({
      ok: true,
      definition: {
        name: 'reviewer', description: 'Reviews a diff: style, bugs.', tools: ['read', 'grep'], model: 'claude-haiku-4-5',
        prompt: '# Reviewer\n\nYou review code.', path: '.agents/agents/reviewer.md', source: 'workspace',
      },
    });
  });

  it("reads Claude Code's comma list and tool names as Conch's, and `model: inherit` as the session's model", () => {
    const parsed = parse(file('name: finder\ndescription: Finds things.\ntools: Read, Glob, Grep, LS, TodoWrite\nmodel: inherit'));
    expect(parsed.ok && parsed.definition.tools).toEqual(['read', 'find', 'grep', 'ls', 'todo']);
    expect(parsed.ok && parsed.definition.model).toBeUndefined();
  });

  it('gives every coding tool when `tools` is left out, and keeps MCP tools by registry name', () => {
    const all = parse(file('name: helper\ndescription: Helps.'));
    expect(all.ok && all.definition.tools).toEqual(['read', 'write', 'edit', 'bash', 'grep', 'find', 'ls', 'todo']);
    const mcp = parse(file('name: helper\ndescription: Helps.\ntools: [read, mcp__docs__search]'));
    expect(mcp.ok && mcp.definition.tools).toEqual(['read', 'mcp__docs__search']);
  });

  it('says why a file is not a usable definition', () => {
    expect(reason('Just a prompt.\n')).toMatch(/no front matter/);
    expect(reason('---\nname: [unclosed\n---\nbody')).toMatch(/not valid YAML/);
    expect(reason(file('description: Reviews.'))).toMatch(/no `name`/);
    expect(reason(file('name: Code Reviewer\ndescription: Reviews.'))).toMatch(/lowercase letters, digits and single hyphens/);
    expect(reason(file('name: worker\ndescription: Works.'))).toMatch(/built-in agent/);
    expect(reason(file('name: reviewer'))).toMatch(/no `description`/);
    expect(reason(file('name: reviewer\ndescription: Reviews.\ntools: read, WebFetch, Task'))).toMatch(/does not have: WebFetch, Task/);
    expect(reason(file('name: reviewer\ndescription: Reviews.\ntools: []'))).toMatch(/lists no tool/);
    expect(reason(file('name: reviewer\ndescription: Reviews.\nmodel: 5'))).toMatch(/`model` must be a model id/);
    expect(reason(file('name: reviewer\ndescription: Reviews.', '\n  \n'))).toMatch(/body is empty/);
  });

  it('keeps the name of an invalid file when it has one, for the list', () => {
    const parsed = parse(file('name: reviewer'));
    expect(!parsed.ok && parsed.invalid).toMatchObject({ name: 'reviewer', path: '.agents/agents/reviewer.md', source: 'workspace' });
  });
});

describe('listDefinitions', () => {
  it('keeps a name where it was found first and lists the later file as invalid, naming the first', () => {
    const list = listDefinitions([
      parse(file('name: reviewer\ndescription: From .agents.')),
      parse(file('name: reviewer\ndescription: From .claude.'), '.claude/agents/reviewer.md'),
      parseAgentDefinition({ path: 'personal/tester.md', text: file('name: tester\ndescription: Tests.\nmodel: gpt-5-mini'), source: 'personal' }),
      parse(file('name: broken'), '.claude/agents/broken.md'),
    ]);
    expect(list.valid.map((d) => [d.name, d.description])).toEqual([['reviewer', 'From .agents.'], ['tester', 'Tests.']]);
    expect(list.invalid.map((i) => [i.path, i.reason.slice(0, 40)])).toEqual([
      ['.claude/agents/reviewer.md', '`name` "reviewer" is already the name of'],
      ['.claude/agents/broken.md', 'It has no `description` in its front mat'],
    ]);
    expect(list.invalid[0].reason).toContain('.agents/agents/reviewer.md');

    const items = definitionItems(list, ['claude-haiku-4-5']);
    expect(items.map((i) => [i.name, i.state])).toEqual([['reviewer', 'valid'], ['tester', 'valid'], ['reviewer', 'invalid'], ['broken', 'invalid']]);
    expect(items[1].note).toMatch(/"gpt-5-mini" is not among the models allowed/);
    expect(definitionItems(list, ['gpt-5-mini'])[1].note).toBeUndefined();
  });
});
