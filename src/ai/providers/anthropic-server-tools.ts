// Anthropic's server-side web tools in a streamed reply: each server_tool_use block, and the web_search_tool_result or
// web_fetch_tool_result that answers it, become one Conch serverTool block. The blocks themselves are kept as the
// API sent them (the tool input assembled from its deltas), since it requires them back unchanged.
import type { ContentBlock, TextCitation } from '@anthropic-ai/sdk/resources/messages';
import type { ServerToolContent, WebSource } from '../types';
import type { AssistantMessageBuilder } from './assistant-builder';

type ServerToolUse = Extract<ContentBlock, { type: 'server_tool_use' }>;
type ToolResult = Extract<ContentBlock, { type: 'web_search_tool_result' | 'web_fetch_tool_result' }>;

/** Follows the server-tool blocks of one reply by their stream index. */
export class AnthropicServerTools {
  /** Open server_tool_use blocks: the block as received and its input's JSON so far. */
  private readonly open = new Map<number, { block: ServerToolUse; json: string }>();

  constructor(private readonly builder: AssistantMessageBuilder) {}

  /** Takes a content_block_start's block if it is one of the web tools' (others are ignored). */
  start(streamIndex: number, block: ContentBlock): void {
    if (block.type === 'server_tool_use' && (block.name === 'web_search' || block.name === 'web_fetch')) {
      const raw = { ...block };
      this.open.set(streamIndex, { block: raw, json: '' });
      this.builder.openServerTool({ kind: block.name, id: block.id, sources: [], provider: 'anthropic', raw: [raw] });
      this.describeInput(raw);
    } else if (block.type === 'web_search_tool_result' || block.type === 'web_fetch_tool_result') {
      this.addResult(block);
    }
  }

  /** Adds input JSON to an open server_tool_use; false when the index is not one (a client tool call's). */
  appendInput(streamIndex: number, partialJson: string): boolean {
    const open = this.open.get(streamIndex);
    if (!open) return false;
    open.json += partialJson;
    return true;
  }

  stop(streamIndex: number): void {
    const open = this.open.get(streamIndex);
    if (!open) return;
    this.open.delete(streamIndex);
    if (open.json.trim() !== '') {
      try {
        open.block.input = JSON.parse(open.json);
      } catch {
        // The API's own JSON; if it ever breaks, the block keeps the input it started with.
      }
    }
    this.describeInput(open.block);
  }

  private describeInput(raw: ServerToolUse): void {
    const block = this.builder.serverTool(raw.id);
    const input = (raw.input ?? {}) as { query?: unknown; url?: unknown };
    if (!block) return;
    if (typeof input.query === 'string') block.query = input.query;
    if (typeof input.url === 'string') block.url = input.url;
  }

  private addResult(result: ToolResult): void {
    const block = this.builder.serverTool(result.tool_use_id) ?? this.orphan(result);
    block.raw = [...block.raw, result];
    const content = result.content;
    if (Array.isArray(content)) {
      block.sources = content.map((page): WebSource => ({ url: page.url, title: page.title }));
    } else if (content.type === 'web_search_tool_result_error' || content.type === 'web_fetch_tool_result_error') {
      block.error = content.error_code;
    } else {
      const title = content.content.title ?? undefined;
      block.url ??= content.url;
      block.sources = [{ url: content.url, ...(title ? { title } : {}) }];
    }
  }

  /** A result whose server_tool_use never came: kept on its own, so it still goes back. */
  private orphan(result: ToolResult): ServerToolContent {
    const kind = result.type === 'web_search_tool_result' ? 'web_search' : 'web_fetch';
    const index = this.builder.openServerTool({ kind, id: result.tool_use_id, sources: [], provider: 'anthropic', raw: [] });
    return this.builder.message.content[index] as ServerToolContent;
  }
}

/** Records a web citation on a text block, keeping Anthropic's own citation to send back. */
export function addCitation(builder: AssistantMessageBuilder, index: number | undefined, citation: TextCitation): void {
  if (index === undefined || citation.type !== 'web_search_result_location') return;
  builder.addCitation(index, {
    url: citation.url,
    ...(citation.title ? { title: citation.title } : {}),
    citedText: citation.cited_text,
    raw: citation,
  });
}
