// What a message starting with `/` means: the built-in `/compact` (handled by the session), `/skill:<name> [text]`
// (the skill's body and the text), a command template (its text with the arguments put in), or an unknown word,
// sent as typed with a hint. The composer's menu lists the same commands.
import type { PromptCommand } from '../mcp/prompt-commands';
import type { CommandTemplate } from './command-template';
import type { Skill } from './skill';
import { expandTemplate } from './template-expansion';

/** The commands a session can run now: usable skills and templates, and why the others cannot be used. */
export type SlashCommandSet = {
  /** Valid skills that are on (also those offered only as commands). */
  skills: Skill[];
  templates: CommandTemplate[];
  /** Skill name → why `/skill:<name>` cannot run it (invalid or off). */
  unusableSkills: Map<string, string>;
  /** The connected MCP servers' prompts, `/mcp:<server>:<prompt>` (expanded by the composer: prompts/get is a request). */
  prompts?: readonly PromptCommand[];
};

export type SlashResolution =
  /** Not a command: send as it is. */
  | { kind: 'text' }
  /** Send `text` to the model; the transcript shows `typed`. */
  | { kind: 'expanded'; typed: string; text: string }
  /** Looks like a command but is none: sent as typed, with `hint` for the person. */
  | { kind: 'unknown'; hint: string };

export type SlashMenuItem = { name: string; description: string; argumentHint: string; kind: 'built-in' | 'skill' | 'template' | 'mcp-prompt' };

export const EMPTY_COMMANDS: SlashCommandSet = { skills: [], templates: [], unusableSkills: new Map() };

const BUILT_IN: SlashMenuItem[] = [
  { name: 'compact', description: 'Summarise the conversation so far to free context.', argumentHint: '[focus]', kind: 'built-in' },
];
const COMMAND = /^\/([A-Za-z0-9][\w.:-]*)(?:\s+([\s\S]*))?$/;

/** What sending `text` does under `commands`. */
export function resolveSlashCommand(text: string, commands: SlashCommandSet): SlashResolution {
  const trimmed = text.trim();
  const match = COMMAND.exec(trimmed);
  if (!match) return { kind: 'text' };
  const [, word, rest = ''] = match;
  if (word === 'compact') return { kind: 'text' };
  if (word.startsWith('skill:')) {
    const name = word.slice('skill:'.length);
    const skill = commands.skills.find((s) => s.name === name);
    if (skill) return { kind: 'expanded', typed: trimmed, text: rest.trim() === '' ? skill.body.trim() : `${skill.body.trim()}\n\n${rest.trim()}` };
    const why = commands.unusableSkills.get(name);
    return { kind: 'unknown', hint: why ? `/skill:${name} was sent as text: ${why}` : `There is no skill named "${name}"; the message was sent as text. Settings → Skills lists the skills.` };
  }
  const template = commands.templates.find((t) => t.name === word);
  if (template) return { kind: 'expanded', typed: trimmed, text: expandTemplate(template.body, rest).trim() };
  return { kind: 'unknown', hint: `/${word} is not a command, so it was sent as text. Type / to see the commands.` };
}

/** The menu's entries for what was typed after `/`, those whose name starts with it first, then those containing it. */
export function slashMenuItems(commands: SlashCommandSet, query: string): SlashMenuItem[] {
  const all: SlashMenuItem[] = [
    ...BUILT_IN,
    ...commands.skills.map((s) => ({ name: `skill:${s.name}`, description: s.description, argumentHint: '[text]', kind: 'skill' as const })),
    ...commands.templates.map((t) => ({ name: t.name, description: t.description, argumentHint: t.argumentHint, kind: 'template' as const })),
    ...(commands.prompts ?? []).map((p) => ({ name: p.name, description: p.description, argumentHint: p.argumentHint, kind: 'mcp-prompt' as const })),
  ];
  const q = query.toLowerCase();
  const starting = all.filter((item) => item.name.toLowerCase().startsWith(q));
  const containing = all.filter((item) => !item.name.toLowerCase().startsWith(q) && item.name.toLowerCase().includes(q));
  return [...starting, ...containing];
}

/** What the composer sends for `text`: a command's expansion with the typed form, or the text itself (with a hint when it looked like a command). */
export function composeMessage(text: string, commands: SlashCommandSet): { text: string; typed?: string; hint: string | null } {
  const resolution = resolveSlashCommand(text, commands);
  if (resolution.kind === 'expanded') return { text: resolution.text, typed: resolution.typed, hint: null };
  return { text, hint: resolution.kind === 'unknown' ? resolution.hint : null };
}
