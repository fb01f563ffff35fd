// A tool call whose final arguments are not JSON ends the reply as an error (nothing half-parsed may run).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startMockProvider, type MockProvider } from '../../../e2e/mock-provider/server';
import { stream } from '../stream';
import { FAST_RETRY, PROVIDER_CASES, collect, userRequest } from '../testing/providers';

let mock: MockProvider;
beforeAll(async () => {
  mock = await startMockProvider();
});
afterAll(() => mock.close());

it.each(PROVIDER_CASES.filter((c) => !c.name.startsWith('google')))('$name: malformed tool arguments end the reply with an error', async ({ model }) => {
  mock.reset();
  mock.setScript([{ content: [{ type: 'toolCall', name: 'write', arguments: '{"path": "a.txt", "content": "unterminated' }] }]);
  const { events, message } = await collect(stream(model(mock.url), userRequest('write'), { apiKey: 'k', ...FAST_RETRY }));
  expect(events.some((e) => e.type === 'toolcall_delta' && e.partial.content[0]?.type === 'toolCall' && e.partial.content[0].arguments.path === 'a.txt')).toBe(true);
  expect(message.stopReason).toBe('error');
  expect(message.errorMessage).toMatch(/arguments for the tool call "write" that are not valid JSON.*Nothing was run/);
  expect(message.content[0]).toMatchObject({ type: 'toolCall', name: 'write', arguments: {} });
});
