// OpenAI Chat Completions streaming (`data:` chunks, a usage chunk, then [DONE]).
import { argumentsText, chunks, stopReasonOf, textDeltas, usageOf, type MockTurn } from './script';

const data = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`;

export function openAIChatFrames(turn: MockTurn, model: string, serial: number, includeUsage: boolean): string[] {
  const base = { id: `chatcmpl-mock${serial}`, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model };
  // With include_usage, every chunk carries `usage: null` until the last one, which has no choices.
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    data({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...(includeUsage ? { usage: null } : {}) });
  const frames = [chunk({ role: 'assistant', content: '', refusal: null })];
  let toolIndex = 0;
  turn.content.forEach((block, index) => {
    if (block.type === 'text') for (const content of textDeltas(block)) frames.push(chunk({ content }));
    else if (block.type === 'thinking') {
      for (const reasoning_content of chunks(block.thinking)) frames.push(chunk({ reasoning_content }));
    } else if (block.type === 'webSearch' || block.type === 'webFetch') {
      // Chat Completions has no server-side web tools: nothing to send.
    } else {
      const i = toolIndex++;
      frames.push(chunk({ tool_calls: [{ index: i, id: block.id ?? `call_mock_${serial}_${index}`, type: 'function',
        function: { name: block.name, arguments: '' } }] }));
      for (const args of chunks(argumentsText(block), 4)) {
        frames.push(chunk({ tool_calls: [{ index: i, function: { arguments: args } }] }));
      }
    }
  });
  const stop = stopReasonOf(turn);
  frames.push(chunk({}, stop === 'length' ? 'length' : stop === 'toolUse' ? 'tool_calls' : 'stop'));
  if (includeUsage) {
    const usage = usageOf(turn);
    frames.push(data({ ...base, choices: [], usage: {
      prompt_tokens: usage.input + usage.cacheRead, completion_tokens: usage.output,
      total_tokens: usage.input + usage.cacheRead + usage.output,
      prompt_tokens_details: { cached_tokens: usage.cacheRead },
    } }));
  }
  frames.push('data: [DONE]\n\n');
  return frames;
}

export const openAIMalformedFrame = 'data: {"id":"chatcmpl-broken","choices":[{,,,\n\n';

export function openAIError(status: number, message?: string): unknown {
  const code = status === 401 ? 'invalid_api_key' : status === 429 ? 'rate_limit_exceeded' : status >= 500 ? 'server_error' : null;
  const type = status === 429 ? 'requests' : status >= 500 ? 'server_error' : 'invalid_request_error';
  return { error: { message: message ?? defaultMessage(status), type, param: null, code } };
}

/** An error sent inside a 200 stream: a `data:` chunk holding only `error`. */
export const openAIChatErrorEvent = data({ error: {
  message: 'The server had an error while processing your request. Sorry about that!', type: 'server_error', param: null, code: null } });

export function openAIBadKey(): unknown {
  return { error: {
    message: 'Incorrect API key provided: sk-mock. You can find your API key at https://platform.openai.com/account/api-keys.',
    type: 'invalid_request_error', param: null, code: 'invalid_api_key' } };
}

/** OpenAI's 400 for messages over the window (Chat Completions wording): `tokens` sent, `window` allowed. */
export function openAIContextTooLong(tokens = 131_072, window = 128_000): unknown {
  return { error: {
    message: `This model's maximum context length is ${window} tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`,
    type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' } };
}

function defaultMessage(status: number): string {
  if (status === 401) return 'Incorrect API key provided: sk-mock. You can find your API key at https://platform.openai.com/account/api-keys.';
  if (status === 429) return 'Rate limit reached for requests. Please try again in 1s.';
  return 'The server had an error while processing your request. Sorry about that!';
}
