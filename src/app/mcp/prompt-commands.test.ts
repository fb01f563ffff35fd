import { describe, expect, it } from 'vitest';
import { mcpPromptCommands, promptArguments } from './prompt-commands';

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
