// Gemini's grounding in a streamed reply: the search queries and pages of googleSearch, and the addresses urlContext
// read, become Conch serverTool blocks holding the metadata as received; grounding supports become citations on the
// reply's text. Gemini takes none of it back, so it only serves the person (and the cost).
import type { Candidate, GroundingMetadata, UrlContextMetadata } from '@google/genai';
import type { ServerToolContent, WebSource } from '../types';
import type { AssistantMessageBuilder } from './assistant-builder';

const SEARCH_ID = 'gemini-grounding';
const FETCH_ID = 'gemini-url-context';

/** Takes a chunk's candidate's metadata (Gemini sends it whole, usually on the last chunk); returns the searches so far. */
export function readGrounding(builder: AssistantMessageBuilder, candidate: Candidate | undefined): number {
  const grounding = candidate?.groundingMetadata;
  if (grounding && (grounding.webSearchQueries?.length || grounding.groundingChunks?.length)) {
    upsert(builder, SEARCH_ID, {
      kind: 'web_search',
      ...(grounding.webSearchQueries?.length ? { query: grounding.webSearchQueries.join('; ') } : {}),
      sources: sourcesOf(grounding),
      raw: [grounding],
    });
    citeSupports(builder, grounding);
  }
  const urls = candidate?.urlContextMetadata;
  if (urls?.urlMetadata?.length) upsert(builder, FETCH_ID, fetchBlock(urls));
  const search = builder.serverTool(SEARCH_ID);
  return search ? ((search.raw[0] as GroundingMetadata).webSearchQueries?.length ?? 0) : 0;
}

function upsert(builder: AssistantMessageBuilder, id: string, fields: Omit<ServerToolContent, 'type' | 'id' | 'provider'>): void {
  const block = builder.serverTool(id);
  if (block) Object.assign(block, fields);
  else builder.openServerTool({ id, provider: 'google', ...fields });
}

function sourcesOf(grounding: GroundingMetadata): WebSource[] {
  return (grounding.groundingChunks ?? []).flatMap((chunk) =>
    chunk.web?.uri ? [{ url: chunk.web.uri, ...(chunk.web.title ? { title: chunk.web.title } : {}) }] : [],
  );
}

function fetchBlock(urls: UrlContextMetadata): Omit<ServerToolContent, 'type' | 'id' | 'provider'> {
  const read = (urls.urlMetadata ?? []).filter((entry) => entry.retrievedUrl);
  const failed = read.filter((entry) => entry.urlRetrievalStatus && entry.urlRetrievalStatus !== 'URL_RETRIEVAL_STATUS_SUCCESS');
  return {
    kind: 'web_fetch',
    ...(read[0]?.retrievedUrl ? { url: read.map((entry) => entry.retrievedUrl).join(', ') } : {}),
    sources: read.map((entry) => ({ url: entry.retrievedUrl ?? '' })),
    ...(failed.length > 0 && failed.length === read.length ? { error: String(failed[0].urlRetrievalStatus) } : {}),
    raw: [urls],
  };
}

/** Each support's pages become citations of the reply's last text block, once each. */
function citeSupports(builder: AssistantMessageBuilder, grounding: GroundingMetadata): void {
  const content = builder.message.content;
  const textIndex = content.findLastIndex((block) => block.type === 'text');
  const text = content[textIndex];
  if (text?.type !== 'text') return;
  const chunks = grounding.groundingChunks ?? [];
  const seen = new Set((text.citations ?? []).map((citation) => citation.url));
  for (const support of grounding.groundingSupports ?? []) {
    for (const chunkIndex of support.groundingChunkIndices ?? []) {
      const web = chunks[chunkIndex]?.web;
      if (!web?.uri || seen.has(web.uri)) continue;
      seen.add(web.uri);
      builder.addCitation(textIndex, {
        url: web.uri,
        ...(web.title ? { title: web.title } : {}),
        ...(support.segment?.text ? { citedText: support.segment.text } : {}),
      });
    }
  }
}
