import { describe, expect, it } from 'vitest';
import { EMPTY_COMMANDS, slashMenuItems } from '../conventions/slash-commands';
import { expandPromptCommand, mcpPromptCommands, promptArguments } from './prompt-commands';

const declared = [
  { name: 'topic', required: true },
  { name: 'depth', required: false },
];

describe('promptArguments', () => {
  it('takes key=value pairs, quoted or not', () => {
    expect(promptArguments(`topic="web workers" depth=2`, declared)).toEqual({ topic: 'web workers', depth: '2' });
  });

  it('fills the arguments in order, the last one taking the rest of the words', () => {
    expect(promptArguments('svelte runes and stores', declared)).toEqual({ topic: 'svelte', depth: 'runes and stores' });
  });

  it('names the missing required arguments and how to give them', () => {
    expect(() => promptArguments('depth=3', declared)).toThrow('This prompt needs topic: type them after the command, e.g. topic=….');
  });
});

describe('mcpPromptCommands', () => {
  it('names a command /mcp:<server>:<prompt> with the untrusted names cleaned to [a-zA-Z0-9_-]', () => {
    const connection = { prompts: () => [{ name: '<b>sum</b>', arguments: [] }], getPrompt: async () => '' };
    expect(mcpPromptCommands([{ name: 'My Docs', connection }]).map((c) => c.name)).toEqual(['mcp:My_Docs:_b_sum__b_']);
  });
});

describe('expandPromptCommand', () => {
  const connection = {
    prompts: () => [{ name: 'review', arguments: [{ name: 'file', required: true }] }],
    getPrompt: async (name: string, args: Record<string, string>) => `Please ${name} ${args.file}.`,
  };
  const commands = mcpPromptCommands([{ name: 'mock', connection }]);

  it('sends the prompt\'s text, and the transcript shows what was typed', async () => {
    expect(await expandPromptCommand('/mcp:mock:review src/a.ts', commands)).toEqual({ text: 'Please review src/a.ts.', typed: '/mcp:mock:review src/a.ts' });
  });

  it('is null for anything that is not a listed prompt', async () => {
    expect(await expandPromptCommand('/mcp:mock:other x', commands)).toBeNull();
    expect(await expandPromptCommand('/compact', commands)).toBeNull();
  });

  it('rejects with what is missing', async () => {
    await expect(expandPromptCommand('/mcp:mock:review', commands)).rejects.toThrow('This prompt needs file');
  });

  it('lists the prompts in the / menu after the other commands', () => {
    const items = slashMenuItems({ ...EMPTY_COMMANDS, prompts: commands }, 'mcp');
    expect(items.map((i) => [i.name, i.argumentHint, i.kind])).toEqual([['mcp:mock:review', '<file>', 'mcp-prompt']]);
  });
});
