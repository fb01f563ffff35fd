// Anthropic Messages API streaming, framed as the real API frames it (named SSE events).
import { argumentsText, chunks, stopReasonOf, textDeltas, usageOf, type MockTurn } from './script';
import { anthropicCitation, anthropicWebToolBlocks, webToolId } from './wire-web-tools';

const sse = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

export function anthropicFrames(turn: MockTurn, model: string, serial: number): string[] {
  const usage = usageOf(turn);
  const frames = [
    sse('message_start', {
      type: 'message_start',
      message: {
        id: `msg_mock_${serial}`, type: 'message', role: 'assistant', model, content: [],
        stop_reason: null, stop_sequence: null,
        usage: { input_tokens: usage.input, output_tokens: 1, cache_read_input_tokens: usage.cacheRead,
          cache_creation_input_tokens: usage.cacheWrite },
      },
    }),
  ];
  const ping = sse('ping', { type: 'ping' });
  let wireIndex = 0; // a web tool is two blocks on the wire (the call, then its result)
  turn.content.forEach((block) => {
    const index = wireIndex++;
    if (block.type === 'text') {
      frames.push(sse('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '', citations: null } }));
      (block.citations ?? []).forEach((citation, i) => {
        frames.push(sse('content_block_delta', { type: 'content_block_delta', index,
          delta: { type: 'citations_delta', citation: anthropicCitation(citation, i) } }));
      });
      for (const text of textDeltas(block)) {
        frames.push(sse('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text } }));
      }
    } else if (block.type === 'thinking') {
      frames.push(sse('content_block_start', { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } }));
      for (const thinking of chunks(block.thinking)) {
        frames.push(sse('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking } }));
      }
      frames.push(sse('content_block_delta', { type: 'content_block_delta', index,
        delta: { type: 'signature_delta', signature: block.signature ?? `sig_mock_${serial}_${index}` } }));
    } else if (block.type === 'webSearch' || block.type === 'webFetch') {
      const [use, result] = anthropicWebToolBlocks(block, webToolId(block, 'srvtoolu', serial, index));
      const at = index;
      wireIndex++;
      frames.push(sse('content_block_start', { type: 'content_block_start', index: at, content_block: { ...use, input: {} } }));
      for (const partial_json of chunks(JSON.stringify(use.input), 2)) {
        frames.push(sse('content_block_delta', { type: 'content_block_delta', index: at, delta: { type: 'input_json_delta', partial_json } }));
      }
      frames.push(sse('content_block_stop', { type: 'content_block_stop', index: at }));
      frames.push(sse('content_block_start', { type: 'content_block_start', index: at + 1, content_block: result }));
      frames.push(sse('content_block_stop', { type: 'content_block_stop', index: at + 1 }));
      return;
    } else {
      frames.push(sse('content_block_start', { type: 'content_block_start', index,
        content_block: { type: 'tool_use', id: block.id ?? `toolu_mock_${serial}_${index}`, name: block.name, input: {} } }));
      for (const partial_json of chunks(argumentsText(block), 4)) {
        frames.push(sse('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } }));
      }
    }
    frames.push(sse('content_block_stop', { type: 'content_block_stop', index }));
  });
  // The real API sends its first ping right after the first content_block_start (or after message_start if none).
  frames.splice(turn.content.length > 0 ? 2 : 1, 0, ping);
  const stop = stopReasonOf(turn);
  const searches = turn.content.filter((b) => b.type === 'webSearch').length;
  const fetches = turn.content.filter((b) => b.type === 'webFetch').length;
  frames.push(sse('message_delta', {
    type: 'message_delta',
    delta: { stop_reason: turn.pauseTurn ? 'pause_turn' : stop === 'length' ? 'max_tokens' : stop === 'toolUse' ? 'tool_use' : 'end_turn', stop_sequence: null },
    usage: { input_tokens: usage.input, cache_creation_input_tokens: usage.cacheWrite, cache_read_input_tokens: usage.cacheRead,
      output_tokens: usage.output,
      ...(searches + fetches > 0 ? { server_tool_use: { web_search_requests: searches, web_fetch_requests: fetches } } : {}) },
  }));
  frames.push(sse('message_stop', { type: 'message_stop' }));
  return frames;
}

export const anthropicMalformedFrame = 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,,,\n\n';

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error', 401: 'authentication_error', 403: 'permission_error', 404: 'not_found_error',
  413: 'request_too_large', 429: 'rate_limit_error', 500: 'api_error', 529: 'overloaded_error',
};

export function anthropicError(status: number, message?: string): unknown {
  const type = ERROR_TYPES[status] ?? 'api_error';
  return { type: 'error', error: { type, message: message ?? defaultMessage(status) } };
}

/** The `error` event Anthropic sends inside a 200 stream when it becomes overloaded midway. */
export const anthropicErrorEvent = sse('error', { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });

export function anthropicBadKey(): unknown {
  return anthropicError(401, 'invalid x-api-key');
}

/** Anthropic's 400 for a prompt over the window: `tokens` sent, `window` allowed. */
export function anthropicContextTooLong(tokens = 213_000, window = 200_000): unknown {
  return anthropicError(400, `prompt is too long: ${tokens} tokens > ${window} maximum`);
}

function defaultMessage(status: number): string {
  if (status === 401) return 'invalid x-api-key';
  if (status === 429) return 'Number of request tokens has exceeded your per-minute rate limit';
  if (status === 529) return 'Overloaded';
  return 'Internal server error';
}
