// A connected server's prompts as commands for the composer's `/` menu: `/mcp:<server>:<prompt> [arguments]`. The
// menu lists these entries beside its own; choosing one expands it into the prompt's text (prompts/get).
import { cleanNamePart, serverNamePart } from '../../remote/mcp/tool-names';
import type { McpConnection, McpPromptInfo } from '../../remote/mcp/types';

/** One `/` command: what the menu shows, and the text it puts into the composer. */
export type PromptCommand = {
  /** Without the slash: `mcp:<server>:<prompt>`. */
  name: string;
  description: string;
  /** The arguments as the menu hints them, e.g. `<topic> [depth]`. */
  argumentHint: string;
  /** The prompt's text, given what was typed after the command (`key=value` pairs, or values in order). */
  expand(args: string): Promise<string>;
};

/** The commands of each connected server's prompts, in server order; names cleaned like its tools' registry names. */
export function mcpPromptCommands(servers: readonly { name: string; connection: Pick<McpConnection, 'prompts' | 'getPrompt'> }[]): PromptCommand[] {
  return servers.flatMap(({ name, connection }) =>
    connection.prompts().map((prompt) => ({
      name: `mcp:${serverNamePart(name)}:${cleanNamePart(prompt.name, 'prompt')}`,
      description: prompt.description ?? `${prompt.name} from the MCP server ${name}`,
      argumentHint: prompt.arguments.map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`)).join(' '),
      expand: async (args: string) => connection.getPrompt(prompt.name, promptArguments(args, prompt.arguments)),
    })),
  );
}

/**
 * What was typed after a command, as the prompt's arguments: `key=value` pairs (values may be quoted) name them;
 * otherwise words fill the arguments in order, the last one taking the rest. Throws when a required one is missing.
 */
export function promptArguments(text: string, declared: McpPromptInfo['arguments']): Record<string, string> {
  const trimmed = text.trim();
  const out: Record<string, string> = {};
  const named = [...trimmed.matchAll(/([A-Za-z_][\w-]*)=("([^"]*)"|'([^']*)'|(\S+))/g)];
  if (named.length > 0) {
    for (const m of named) out[m[1]] = m[3] ?? m[4] ?? m[5] ?? '';
  } else if (trimmed !== '' && declared.length > 0) {
    const words = trimmed.split(/\s+/);
    declared.forEach((arg, i) => {
      const value = i === declared.length - 1 ? words.slice(i).join(' ') : words[i];
      if (value) out[arg.name] = value;
    });
  }
  const missing = declared.filter((a) => a.required && !out[a.name]).map((a) => a.name);
  if (missing.length > 0) throw new Error(`This prompt needs ${missing.join(', ')}: type them after the command, e.g. ${missing.map((m) => `${m}=…`).join(' ')}.`);
  return out;
}

/**
 * The MCP prompt `text` runs (`/mcp:<server>:<prompt> [arguments]`), as what to send and what the transcript shows;
 * null when `text` names none. Rejects with a message for the person (a missing argument, a server that failed).
 */
export async function expandPromptCommand(text: string, commands: readonly PromptCommand[]): Promise<{ text: string; typed: string } | null> {
  const trimmed = text.trim();
  const match = /^\/(mcp:\S+)(?:\s+([\s\S]*))?$/.exec(trimmed);
  const command = match ? commands.find((c) => c.name === match[1]) : undefined;
  if (!match || !command) return null;
  return { text: (await command.expand(match[2] ?? '')).trim(), typed: trimmed };
}
