// The provider's server-side web tools in each wire format, shaped as the installed SDKs type them: Anthropic's
// server_tool_use / web_search_tool_result / web_fetch_tool_result blocks and web_search_result_location citations,
// OpenAI Responses' web_search_call items and url_citation annotations, Gemini's grounding and URL context metadata.
// Exported so tests can compare what Conch sends back with what the mock sent.
import type { MockBlock } from './script';

export type WebSearchBlock = Extract<MockBlock, { type: 'webSearch' }>;
export type WebFetchBlock = Extract<MockBlock, { type: 'webFetch' }>;
export type WebToolBlock = WebSearchBlock | WebFetchBlock;
export type MockCitation = NonNullable<Extract<MockBlock, { type: 'text' }>['citations']>[number];

const DIRECT = { type: 'direct' } as const;

/** The id a web tool block goes by on the wire. */
export function webToolId(block: WebToolBlock, prefix: string, serial: number, index: number): string {
  return block.id ?? `${prefix}_mock_${serial}_${index}`;
}

/** Anthropic: the server_tool_use block (its input complete) and the result block that answers it. */
export function anthropicWebToolBlocks(block: WebToolBlock, id: string): [Record<string, unknown>, Record<string, unknown>] {
  if (block.type === 'webSearch') {
    return [
      { type: 'server_tool_use', id, name: 'web_search', input: { query: block.query }, caller: DIRECT },
      {
        type: 'web_search_tool_result', tool_use_id: id, caller: DIRECT,
        content: block.error
          ? { type: 'web_search_tool_result_error', error_code: block.error }
          : block.results.map((r, i) => ({ type: 'web_search_result', url: r.url, title: r.title, encrypted_content: `enc_${id}_${i}`, page_age: null })),
      },
    ];
  }
  return [
    { type: 'server_tool_use', id, name: 'web_fetch', input: { url: block.url }, caller: DIRECT },
    {
      type: 'web_fetch_tool_result', tool_use_id: id, caller: DIRECT,
      content: block.error
        ? { type: 'web_fetch_tool_result_error', error_code: block.error }
        : {
            type: 'web_fetch_result', url: block.url, retrieved_at: '2026-11-30T12:00:00Z',
            content: { type: 'document', title: block.title ?? null, citations: null,
              source: { type: 'text', media_type: 'text/plain', data: block.text ?? `The page at ${block.url}.` } },
          },
    },
  ];
}

/** Anthropic: a text citation of a search result. */
export function anthropicCitation(citation: MockCitation, index: number): Record<string, unknown> {
  return { type: 'web_search_result_location', url: citation.url, title: citation.title, cited_text: citation.citedText, encrypted_index: `idx_${index}` };
}

/** OpenAI Responses: the finished web_search_call item. */
export function openAIWebSearchItem(block: WebToolBlock, id: string): Record<string, unknown> {
  const action = block.type === 'webSearch'
    ? { type: 'search', query: block.query, queries: [block.query], sources: block.results.map((r) => ({ type: 'url', url: r.url })) }
    : { type: 'open_page', url: block.url };
  return { id, type: 'web_search_call', status: block.error ? 'failed' : 'completed', action };
}

/** OpenAI Responses: a url_citation annotation over `text`. */
export function openAIUrlCitation(citation: MockCitation, text: string): Record<string, unknown> {
  const start = Math.max(0, text.indexOf(citation.citedText));
  return { type: 'url_citation', url: citation.url, title: citation.title, start_index: start, end_index: start + citation.citedText.length };
}

/** Gemini: the candidate's groundingMetadata and urlContextMetadata for a turn's blocks (undefined when none). */
export function geminiGrounding(blocks: MockBlock[]): { groundingMetadata?: unknown; urlContextMetadata?: unknown } {
  const searches = blocks.filter((b): b is WebSearchBlock => b.type === 'webSearch');
  const fetches = blocks.filter((b): b is WebFetchBlock => b.type === 'webFetch');
  const citations = blocks.flatMap((b) => (b.type === 'text' ? (b.citations ?? []).map((c) => ({ c, text: b.text })) : []));
  const chunks: { web: { uri: string; title: string } }[] = [];
  const chunkOf = (url: string, title: string) => {
    const found = chunks.findIndex((chunk) => chunk.web.uri === url);
    return found >= 0 ? found : chunks.push({ web: { uri: url, title } }) - 1;
  };
  for (const search of searches) for (const r of search.results) chunkOf(r.url, r.title);
  const supports = citations.map(({ c, text }) => {
    const start = Math.max(0, text.indexOf(c.citedText));
    return { segment: { startIndex: start, endIndex: start + c.citedText.length, text: c.citedText }, groundingChunkIndices: [chunkOf(c.url, c.title)] };
  });
  return {
    ...(searches.length > 0
      ? { groundingMetadata: {
          webSearchQueries: searches.map((s) => s.query), groundingChunks: chunks, groundingSupports: supports,
          searchEntryPoint: { renderedContent: '<div class="mock-search-chip">Google Search suggestions</div>' },
        } }
      : {}),
    ...(fetches.length > 0
      ? { urlContextMetadata: { urlMetadata: fetches.map((f) => ({ retrievedUrl: f.url,
          urlRetrievalStatus: f.error ? 'URL_RETRIEVAL_STATUS_ERROR' : 'URL_RETRIEVAL_STATUS_SUCCESS' })) } }
      : {}),
  };
}
