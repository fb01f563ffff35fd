// The mock's web tool blocks on each wire, as raw SSE: what a real API would send for a search, a fetch and a citation.
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { parseScript, type MockTurn } from './script';
import { startMockProvider, type MockProvider } from './server';

let mock: MockProvider;
beforeAll(async () => {
  mock = await startMockProvider();
});
afterAll(() => mock.close());
beforeEach(() => mock.reset());

const turn: MockTurn = { content: [
  { type: 'webSearch', id: 'ws1', query: 'q', results: [{ url: 'https://a.example/', title: 'A' }] },
  { type: 'webFetch', id: 'wf1', url: 'https://b.example/' },
  { type: 'text', text: 'Answer from A.', citations: [{ url: 'https://a.example/', title: 'A', citedText: 'from A' }] },
] };

/** The `data:` payloads of an SSE body. */
async function events(path: string, body: unknown): Promise<Record<string, unknown>[]> {
  const response = await fetch(`${mock.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await response.text();
  return [...text.matchAll(/^data: (\{.*\})\r?$/gm)].map((m) => JSON.parse(m[1]) as Record<string, unknown>);
}

it('accepts web tool blocks in a script', () => {
  expect(parseScript([turn])).toHaveLength(1);
});

it('Anthropic: server_tool_use with streamed input, the result blocks, a citations_delta and the search count', async () => {
  mock.setScript([turn]);
  const frames = await events('/v1/messages', { model: 'claude-haiku-4-5', stream: true, messages: [{ role: 'user', content: 'go' }] });
  const starts = frames.filter((f) => f.type === 'content_block_start').map((f) => [f.index, (f.content_block as { type: string }).type]);
  expect(starts).toEqual([[0, 'server_tool_use'], [1, 'web_search_tool_result'], [2, 'server_tool_use'], [3, 'web_fetch_tool_result'], [4, 'text']]);
  const input = frames.filter((f) => f.index === 0 && (f.delta as { type?: string } | undefined)?.type === 'input_json_delta')
    .map((f) => (f.delta as { partial_json: string }).partial_json).join('');
  expect(JSON.parse(input)).toEqual({ query: 'q' });
  const citation = frames.find((f) => (f.delta as { type?: string } | undefined)?.type === 'citations_delta');
  expect(citation?.delta).toMatchObject({ citation: { type: 'web_search_result_location', url: 'https://a.example/', cited_text: 'from A' } });
  const end = frames.find((f) => f.type === 'message_delta') as { usage: Record<string, unknown> };
  expect(end.usage.server_tool_use).toEqual({ web_search_requests: 1, web_fetch_requests: 1 });
});

it('OpenAI Responses: web_search_call items (search, then open_page) and a url_citation annotation', async () => {
  mock.setScript([turn]);
  const frames = await events('/v1/responses', { model: 'gpt-5', stream: true, input: [{ role: 'user', content: 'go' }] });
  const done = frames.filter((f) => f.type === 'response.output_item.done').map((f) => f.item as Record<string, unknown>);
  expect(done.slice(0, 2)).toEqual([
    { id: 'ws1', type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'q', queries: ['q'], sources: [{ type: 'url', url: 'https://a.example/' }] } },
    { id: 'wf1', type: 'web_search_call', status: 'completed', action: { type: 'open_page', url: 'https://b.example/' } },
  ]);
  expect(frames.map((f) => f.type)).toContain('response.web_search_call.searching');
  const annotation = frames.find((f) => f.type === 'response.output_text.annotation.added')?.annotation;
  expect(annotation).toEqual({ type: 'url_citation', url: 'https://a.example/', title: 'A', start_index: 7, end_index: 13 });
});

it('Gemini: grounding metadata with queries, chunks and supports, and URL context, on the last chunk', async () => {
  mock.setScript([turn]);
  const frames = await events('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse', { contents: [{ role: 'user', parts: [{ text: 'go' }] }] });
  const candidate = (frames.at(-1)?.candidates as Record<string, unknown>[])[0];
  expect(candidate.groundingMetadata).toMatchObject({
    webSearchQueries: ['q'], groundingChunks: [{ web: { uri: 'https://a.example/', title: 'A' } }],
    groundingSupports: [{ segment: { startIndex: 7, endIndex: 13, text: 'from A' }, groundingChunkIndices: [0] }],
  });
  expect(candidate.urlContextMetadata).toEqual({ urlMetadata: [{ retrievedUrl: 'https://b.example/', urlRetrievalStatus: 'URL_RETRIEVAL_STATUS_SUCCESS' }] });
  expect(frames.slice(0, -1).every((f) => !(f.candidates as Record<string, unknown>[])[0].groundingMetadata)).toBe(true);
});
