import { describe, expect, it } from 'vitest';
import { parseCommandTemplate } from './command-template';
import { parseSkill } from './skill';
import { resolveSlashCommand, slashMenuItems, type SlashCommandSet } from './slash-commands';

const commands: SlashCommandSet = {
  skills: [parseSkill({ folder: 'deploy', path: '.agents/skills/deploy/SKILL.md', text: '---\nname: deploy\ndescription: Ship it\n---\nRun the deploy steps.\n', source: 'workspace' })],
  templates: [parseCommandTemplate({ fileName: 'fix.md', path: '.claude/commands/fix.md', text: '---\nargument-hint: <issue>\n---\nFix issue $1', source: 'workspace' })],
  unusableSkills: new Map([['broken', 'its SKILL.md has no `name`.']]),
};

describe('resolveSlashCommand', () => {
  it('sends a skill body and the text', () => {
    expect(resolveSlashCommand('/skill:deploy to staging', commands)).toEqual({ kind: 'expanded', typed: '/skill:deploy to staging', text: 'Run the deploy steps.\n\nto staging' });
  });

  it('expands a template', () => {
    expect(resolveSlashCommand('/fix 42', commands)).toEqual({ kind: 'expanded', typed: '/fix 42', text: 'Fix issue 42' });
  });

  it('sends an unknown word as text with a hint, and leaves ordinary text and /compact alone', () => {
    expect(resolveSlashCommand('/frobnicate now', commands)).toMatchObject({ kind: 'unknown', hint: expect.stringContaining('/frobnicate is not a command') });
    expect(resolveSlashCommand('/skill:broken', commands)).toMatchObject({ kind: 'unknown', hint: expect.stringContaining('no `name`') });
    expect(resolveSlashCommand('/usr/bin is a path', commands)).toEqual({ kind: 'text' });
    expect(resolveSlashCommand('hello /fix', commands)).toEqual({ kind: 'text' });
    expect(resolveSlashCommand('/compact tests', commands)).toEqual({ kind: 'text' });
  });
});

describe('slashMenuItems', () => {
  it('lists built-ins, skills and templates, filtered by what was typed', () => {
    expect(slashMenuItems(commands, '').map((i) => i.name)).toEqual(['compact', 'skill:deploy', 'fix']);
    expect(slashMenuItems(commands, 'fi').map((i) => i.name)).toEqual(['fix']);
    expect(slashMenuItems(commands, 'dep').map((i) => i.name)).toEqual(['skill:deploy']);
  });
});
