// A server's prompts (prompts/list) checked for shape, and one prompt's messages (prompts/get) as the text the
// composer puts in the message box: text as it is, embedded text resources with their URI, anything else named.
import type { McpPromptInfo } from './types';

const MAX_PROMPTS = 500;

/** The usable prompts of a prompts/list answer's pages (no name: left out). */
export function promptInfos(listed: unknown[]): McpPromptInfo[] {
  const prompts: McpPromptInfo[] = [];
  for (const raw of listed) {
    if (prompts.length === MAX_PROMPTS) break;
    if (typeof raw !== 'object' || raw === null) continue;
    const p = raw as Record<string, unknown>;
    if (typeof p.name !== 'string' || p.name === '' || p.name.length > 256) continue;
    const args = Array.isArray(p.arguments) ? p.arguments : [];
    prompts.push({
      name: p.name,
      ...(typeof p.description === 'string' ? { description: p.description } : {}),
      arguments: args.flatMap((a) => {
        if (typeof a !== 'object' || a === null || typeof (a as { name?: unknown }).name !== 'string') return [];
        const { name, description, required } = a as { name: string; description?: unknown; required?: unknown };
        return [{ name, ...(typeof description === 'string' ? { description } : {}), required: required === true }];
      }),
    });
  }
  return prompts;
}

/** The prompts/get answer's messages as one text, messages parted by a blank line. */
export function promptText(answer: unknown): string {
  const messages = (answer as { messages?: unknown } | null)?.messages;
  if (!Array.isArray(messages)) return '';
  return messages.map((m) => contentText((m as { content?: unknown } | null)?.content)).filter((t) => t !== '').join('\n\n');
}

function contentText(content: unknown): string {
  if (typeof content !== 'object' || content === null) return '';
  const c = content as Record<string, unknown>;
  if (c.type === 'text' && typeof c.text === 'string') return c.text;
  if (c.type === 'resource' && typeof c.resource === 'object' && c.resource !== null) {
    const r = c.resource as Record<string, unknown>;
    return typeof r.text === 'string' ? `${String(r.uri)}:\n${r.text}` : `[resource ${String(r.uri)}]`;
  }
  if (c.type === 'resource_link') return `[resource ${String(c.uri)}]`;
  return `[${String(c.type)} content]`;
}
