// A server's tools/call answer as the loop's tool result: text as text, images as images, audio, resource links
// and embedded resources described in text (their bytes are not the model's to read), structuredContent as JSON
// when the server gave no text. The text is cut like bash's output (50 KB, 2000 lines), but keeping the head: a
// server's answer leads with what matters. The whole text is spilled to a file the agent can read, when it can be.
import type { ImageContent, TextContent } from '../../ai/types';
import type { AgentToolResult } from '../../agent/types';
import { truncateHead } from '../../tools/truncate';
import { formatBytes } from '../../tools/utf8';

/** What a server's result holds, as far as it is read (everything else is ignored). */
export type CallToolAnswer = { content?: unknown; structuredContent?: unknown; isError?: unknown };
export type Spill = (text: string) => Promise<string | undefined>;

export type McpResultDetails = { server: string; tool: string; isError: boolean; fullOutputPath?: string; cut?: boolean };

/** The result for the loop; `isError` answers are thrown by the caller with this text, as built-in tools fail. */
export async function mapCallResult(answer: CallToolAnswer, spill: Spill | undefined): Promise<{ content: AgentToolResult['content']; text: string; cut: boolean; fullOutputPath?: string }> {
  const texts: string[] = [];
  const images: ImageContent[] = [];
  for (const block of Array.isArray(answer.content) ? answer.content : []) {
    const mapped = mapBlock(block);
    if (mapped === undefined) continue;
    if (mapped.type === 'text') texts.push(mapped.text);
    else images.push(mapped);
  }
  if (texts.length === 0 && answer.structuredContent !== undefined) texts.push(jsonText(answer.structuredContent));
  if (texts.length === 0 && images.length === 0) texts.push('(no output)');

  const full = texts.join('\n\n');
  const truncation = truncateHead(full);
  let text = full;
  let fullOutputPath: string | undefined;
  if (truncation.truncated) {
    fullOutputPath = spill ? await spill(full).catch(() => undefined) : undefined;
    const where = fullOutputPath
      ? `Full output (${formatBytes(truncation.totalBytes)}): ${fullOutputPath}; read it with the read tool (offset/limit) or search it with grep.`
      : 'The full output could not be saved.';
    text = `${truncation.content}\n\n[Output cut: showing lines 1-${truncation.outputLines} of ${truncation.totalLines}. ${where}]`;
  }
  const content: AgentToolResult['content'] = texts.length > 0 ? [{ type: 'text', text }, ...images] : images;
  return { content, text, cut: truncation.truncated, fullOutputPath };
}

function mapBlock(block: unknown): TextContent | ImageContent | undefined {
  if (typeof block !== 'object' || block === null) return undefined;
  const b = block as Record<string, unknown>;
  switch (b.type) {
    case 'text':
      return typeof b.text === 'string' ? { type: 'text', text: b.text } : undefined;
    case 'image':
      if (typeof b.data === 'string' && typeof b.mimeType === 'string' && b.mimeType.startsWith('image/')) {
        return { type: 'image', data: b.data, mimeType: b.mimeType };
      }
      return { type: 'text', text: '[an image the server sent in a form that cannot be shown]' };
    case 'audio':
      return { type: 'text', text: `[audio (${stringOr(b.mimeType, 'unknown type')}, ${base64Size(b.data)}): not passed to the model]` };
    case 'resource_link':
      return { type: 'text', text: resourceLine('Resource link', b) };
    case 'resource':
      return embeddedResource(b.resource);
    default:
      return undefined;
  }
}

function embeddedResource(resource: unknown): TextContent | ImageContent | undefined {
  if (typeof resource !== 'object' || resource === null) return undefined;
  const r = resource as Record<string, unknown>;
  if (typeof r.text === 'string') return { type: 'text', text: `${resourceLine('Resource', r)}\n${r.text}` };
  if (typeof r.blob === 'string' && typeof r.mimeType === 'string' && /^image\/(png|jpeg|gif|webp)$/.test(r.mimeType)) {
    return { type: 'image', data: r.blob, mimeType: r.mimeType };
  }
  return { type: 'text', text: `${resourceLine('Resource', r)} (${base64Size(r.blob)} of binary data, not shown)` };
}

function resourceLine(kind: string, r: Record<string, unknown>): string {
  const name = typeof r.name === 'string' ? ` ${r.name}` : '';
  const type = typeof r.mimeType === 'string' ? ` (${r.mimeType})` : '';
  const about = typeof r.description === 'string' ? ` — ${r.description}` : '';
  return `[${kind}${name}: ${stringOr(r.uri, '(no URI)')}${type}${about}]`;
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}

function base64Size(data: unknown): string {
  return typeof data === 'string' ? formatBytes(Math.floor((data.length * 3) / 4)) : 'size unknown';
}

function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}
