import { describe, expect, it } from 'vitest';
import { customModel } from './models';
import { collect, userRequest } from './testing/providers';
import { stream } from './stream';

describe('a request without a key', () => {
  it.each([
    ['anthropic', 'claude-haiku-4-5', 'Anthropic'],
    ['openai', 'gpt-5', 'OpenAI'],
    ['google', 'gemini-2.5-flash', 'Google'],
  ])('%s: says to add the key, without calling the provider', async (provider, id, label) => {
    let called = false;
    const fetch: typeof globalThis.fetch = async () => {
      called = true;
      return new Response('{}', { status: 500 });
    };
    const { events, message } = await collect(stream(customModel(provider, id), userRequest('hi'), { fetch }));
    expect(events.map((e) => e.type)).toEqual(['start', 'error']);
    expect(message.stopReason).toBe('error');
    expect(message.errorMessage).toBe(`No ${label} API key is set. Add it in settings; Conch sends it only to ${label}.`);
    expect(called).toBe(false);
  });
});
