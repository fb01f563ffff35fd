// "Test connection" against the mock provider: each of the four outcomes a person can act on.
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { startMockProvider, type MockProvider } from '../../e2e/mock-provider/server';
import { testConnection } from './connection-test';
import { customModel } from './models';

let mock: MockProvider;
beforeAll(async () => {
  mock = await startMockProvider();
});
afterAll(() => mock.close());
beforeEach(() => mock.reset());

const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });

it('says OK with the answer time, after one tiny request', async () => {
  mock.setScript([text('OK')]);
  let clock = 1000;
  const result = await testConnection({ ...customModel('anthropic', 'claude-sonnet-5-5'), baseUrl: mock.url }, { apiKey: 'k', now: () => (clock += 250) });
  expect(result).toEqual({ kind: 'ok', ms: 250 });
  expect(mock.requests).toHaveLength(1);
  const body = mock.requests[0].body as { max_tokens: number; messages: unknown[] };
  // Anthropic's adapter never asks for fewer than 1,024 tokens; the model still answers one word.
  expect(body.max_tokens).toBeLessThanOrEqual(1024);
  expect(body.messages).toHaveLength(1);
  expect((mock.requests[0].body as { tools?: unknown }).tools).toBeUndefined();
});

it('tells a rejected key, an unknown model and an unreachable endpoint apart, without retrying', async () => {
  mock.setScript([{ ...text('never'), fault: { type: 'badKey', times: 5 } }]);
  const gemini = await testConnection({ ...customModel('google', 'gemini-3.5-flash'), baseUrl: mock.url }, { apiKey: 'k' });
  expect(gemini).toMatchObject({ kind: 'auth', message: expect.stringMatching(/rejected the key/) });
  expect(mock.requests).toHaveLength(1);

  for (const model of [customModel('openai', 'gpt-9'), customModel('anthropic', 'claude-nope'), customModel('google', 'gemini-nope')]) {
    mock.reset();
    mock.setScript([{ ...text('never'), fault: { type: 'modelNotFound' } }]);
    const baseUrl = model.provider === 'openai' ? `${mock.url}/v1` : mock.url;
    const result = await testConnection({ ...model, baseUrl }, { apiKey: 'k' });
    expect(result, model.provider).toMatchObject({ kind: 'model_not_found', message: expect.stringMatching(/does not offer this model/) });
  }

  const closed = await startMockProvider();
  await closed.close();
  const local = await testConnection(customModel('openai-compatible', 'qwen3', `${closed.url}/v1`));
  expect(local).toMatchObject({ kind: 'network', message: expect.stringMatching(/Access-Control-Allow-Origin/) });
});
