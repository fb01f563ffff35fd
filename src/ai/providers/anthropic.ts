// Anthropic Messages API through @anthropic-ai/sdk (loaded on first use), mapped onto the unified stream.
import type {
  MessageCreateParamsStreaming,
  MessageParam,
  RawMessageStreamEvent,
  StopReason as AnthropicStopReason,
} from '@anthropic-ai/sdk/resources/messages';
import { REDACTED_THINKING_PREFIX, anthropicMessages, anthropicTools, anthropicWebTools } from '../convert/anthropic';
import { hasWebTools } from '../server-tools';
import { PROVIDER_LABELS } from '../provider-id';
import type { AssistantMessageStream, Model, StreamRequest } from '../types';
import type { AssistantMessageBuilder, TokenCounts } from './assistant-builder';
import { AnthropicServerTools, addCitation } from './anthropic-server-tools';
import { runProvider, type AttemptOutcome, type ProviderStreamOptions } from './run-provider';

/** How many searches, and fetches, one request may make: enough to look a thing up, not to crawl a site. */
export const WEB_TOOL_MAX_USES = 5;
const THINKING_BUDGET = { low: 2048, medium: 8192, high: 24_576 } as const;
/** Models from Claude 4.6 on think "adaptively" (effort instead of a token budget); budgets are deprecated there. */
const ADAPTIVE_THINKING = /^claude-(opus|sonnet)-4-([6-9]|\d\d)|^claude-[a-z]+-([5-9]|\d\d)/;

/** Streams one Anthropic reply. Never throws: failures arrive as an `error` event. */
export function streamAnthropic(model: Model, request: StreamRequest, options?: ProviderStreamOptions): AssistantMessageStream {
  return runProvider(model, PROVIDER_LABELS.anthropic.short, options, async ({ builder, signal, options }) => {
    const { default: Anthropic } = await import('@anthropic-ai/sdk');
    const client = new Anthropic({
      // SDK 1.x sends `apiKey` as `Authorization: Bearer`, which the API reserves for OAuth tokens; Console keys
      // belong in `x-api-key`. Passing the key as a credential still stops the SDK from looking for others.
      apiKey: options.apiKey || 'no-key',
      baseURL: model.baseUrl || undefined,
      dangerouslyAllowBrowser: true,
      maxRetries: 0,
      ...(options.fetch ? { fetch: options.fetch } : {}),
      defaultHeaders: { ...options.headers, 'x-api-key': options.apiKey ?? '', Authorization: null },
    });
    // A turn paused by the API (a long run of server tools) is sent back as it stands, and the reply goes on in the
    // same message; its usage is the sum of the requests.
    const earlier: TokenCounts[] = [];
    let sent = request;
    for (;;) {
      const events = await client.messages.create(anthropicParams(model, sent, options), { signal });
      const read = await readAnthropicStream(events, builder, earlier);
      if (read.outcome !== PAUSED) return read.outcome;
      if (earlier.length + 1 >= MAX_PAUSED_CONTINUATIONS) return 'stop';
      earlier.push(read.tokens);
      sent = { ...request, messages: [...request.messages, { ...builder.message, content: builder.message.content.slice() }] };
    }
  });
}

/** The API paused the turn (stop reason "pause_turn"): send it back to let it continue. */
const PAUSED = Symbol('paused');
/** Continuations of one reply, so a server that keeps pausing cannot keep the run going for ever. */
const MAX_PAUSED_CONTINUATIONS = 8;

export function anthropicParams(model: Model, request: StreamRequest, options: ProviderStreamOptions): MessageCreateParamsStreaming {
  const webTools = options.webTools === true && hasWebTools(model);
  const messages = anthropicMessages(request.messages, model, webTools);
  const wanted = model.reasoning && options.thinking && options.thinking !== 'off' ? options.thinking : undefined;
  // Finishing a tool loop that another model (or Claude with thinking off) started: the API rejects thinking there.
  const effort = wanted && !toolLoopWithoutThinking(messages) ? wanted : undefined;
  const adaptive = effort !== undefined && ADAPTIVE_THINKING.test(model.id);
  const budget = effort && !adaptive ? THINKING_BUDGET[effort] : 0;
  const maxTokens = Math.max(options.maxTokens ?? model.maxTokens, budget + 1024);
  const tools = [
    ...anthropicTools(request.tools),
    ...(webTools ? anthropicWebTools(WEB_TOOL_MAX_USES) : []),
  ];
  return {
    model: model.id,
    max_tokens: maxTokens,
    stream: true,
    ...(request.systemPrompt
      ? { system: [{ type: 'text', text: request.systemPrompt, cache_control: { type: 'ephemeral' } }] }
      : {}),
    messages,
    ...(tools.length > 0 ? { tools } : {}),
    ...(adaptive
      ? { thinking: { type: 'adaptive', display: 'summarized' }, output_config: { effort } }
      : effort
        ? { thinking: { type: 'enabled', budget_tokens: budget } }
        : {}),
  };
}

/**
 * With thinking on, the API requires the assistant turn whose tool calls the last user message answers to open with
 * a thinking block; a turn from another provider cannot, as its thinking carries no Anthropic signature.
 */
function toolLoopWithoutThinking(messages: MessageParam[]): boolean {
  const last = messages[messages.length - 1];
  const answersTools = last?.role === 'user' && Array.isArray(last.content) && last.content.some((b) => b.type === 'tool_result');
  if (!answersTools) return false;
  const turn = messages.findLast((m) => m.role === 'assistant');
  const first = Array.isArray(turn?.content) ? turn.content[0] : undefined;
  return first?.type !== 'thinking' && first?.type !== 'redacted_thinking';
}

type ReadOutcome = { outcome: AttemptOutcome | typeof PAUSED; tokens: TokenCounts };

/** Reads one response into `builder`; the usage shown adds `earlier` (the paused requests of the same reply). */
async function readAnthropicStream(
  events: AsyncIterable<RawMessageStreamEvent>,
  builder: AssistantMessageBuilder,
  earlier: TokenCounts[] = [],
): Promise<ReadOutcome> {
  const indexOf = new Map<number, number>(); // Anthropic block index -> Conch content index
  const serverTools = new AnthropicServerTools(builder);
  const tokens: TokenCounts = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  const setUsage = () => builder.setUsage(summed([...earlier, tokens]));
  let stopReason: AnthropicStopReason | null = null;

  for await (const event of events) {
    switch (event.type) {
      case 'message_start': {
        const usage = event.message.usage;
        tokens.input = usage.input_tokens ?? 0;
        tokens.output = usage.output_tokens ?? 0;
        tokens.cacheRead = usage.cache_read_input_tokens ?? 0;
        tokens.cacheWrite = usage.cache_creation_input_tokens ?? 0;
        setUsage();
        break;
      }
      case 'content_block_start': {
        const block = event.content_block;
        if (block.type === 'text') {
          indexOf.set(event.index, builder.openText());
          builder.appendText(indexOf.get(event.index)!, block.text);
        } else if (block.type === 'thinking') {
          indexOf.set(event.index, builder.openThinking(block.signature || undefined));
          builder.appendThinking(indexOf.get(event.index)!, block.thinking);
        } else if (block.type === 'redacted_thinking') {
          indexOf.set(event.index, builder.openThinking(REDACTED_THINKING_PREFIX + block.data));
        } else if (block.type === 'tool_use') {
          indexOf.set(event.index, builder.openToolCall(block.id, block.name));
        } else serverTools.start(event.index, block);
        for (const citation of block.type === 'text' ? (block.citations ?? []) : []) {
          addCitation(builder, indexOf.get(event.index), citation);
        }
        break;
      }
      case 'content_block_delta': {
        const index = indexOf.get(event.index);
        const delta = event.delta;
        if (delta.type === 'input_json_delta' && serverTools.appendInput(event.index, delta.partial_json)) break;
        if (index === undefined) break;
        if (delta.type === 'text_delta') builder.appendText(index, delta.text);
        else if (delta.type === 'thinking_delta') builder.appendThinking(index, delta.thinking);
        else if (delta.type === 'signature_delta') builder.setSignature(index, delta.signature);
        else if (delta.type === 'input_json_delta') builder.appendToolArguments(index, delta.partial_json);
        else if (delta.type === 'citations_delta') addCitation(builder, index, delta.citation);
        break;
      }
      case 'content_block_stop': {
        serverTools.stop(event.index);
        const index = indexOf.get(event.index);
        if (index !== undefined) builder.closeToolCall(index);
        break;
      }
      case 'message_delta': {
        stopReason = event.delta.stop_reason ?? stopReason;
        const usage = event.usage;
        tokens.output = usage.output_tokens ?? tokens.output;
        if (usage.input_tokens != null) tokens.input = usage.input_tokens;
        if (usage.cache_read_input_tokens != null) tokens.cacheRead = usage.cache_read_input_tokens;
        if (usage.cache_creation_input_tokens != null) tokens.cacheWrite = usage.cache_creation_input_tokens;
        if (usage.server_tool_use?.web_search_requests) tokens.webSearches = usage.server_tool_use.web_search_requests;
        setUsage();
        break;
      }
      case 'message_stop':
        return { outcome: stopReason === 'pause_turn' ? PAUSED : mapStopReason(stopReason), tokens };
    }
  }
  return { outcome: undefined, tokens };
}

function summed(counts: TokenCounts[]): TokenCounts {
  const total: TokenCounts = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  for (const c of counts) {
    total.input += c.input;
    total.output += c.output;
    total.cacheRead += c.cacheRead;
    total.cacheWrite += c.cacheWrite;
    if (c.webSearches) total.webSearches = (total.webSearches ?? 0) + c.webSearches;
  }
  return total;
}

function mapStopReason(reason: AnthropicStopReason | null): AttemptOutcome {
  switch (reason) {
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'toolUse';
    case 'refusal':
      return { refused: 'The model declined to continue this conversation (Anthropic stop reason "refusal").' };
    default:
      return 'stop';
  }
}
