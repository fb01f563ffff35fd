// OpenAI Responses' web search in a streamed reply: a web_search_call item becomes a Conch serverTool block holding the
// item as received (it goes back as an input item), and url_citation annotations become citations on the text.
import type { ResponseFunctionWebSearch } from 'openai/resources/responses/responses';
import type { Citation, ServerToolContent } from '../types';

/** The serverTool block for a web_search_call item as it stands (added, then done with its action and sources). */
export function webSearchBlock(item: ResponseFunctionWebSearch): Omit<ServerToolContent, 'type'> {
  const action = item.action as ResponseFunctionWebSearch['action'] | undefined;
  const base = { id: item.id, provider: 'openai', raw: [item], ...(item.status === 'failed' ? { error: 'failed' } : {}) };
  switch (action?.type) {
    case 'open_page':
      return { ...base, kind: 'web_fetch', ...(action.url ? { url: action.url, sources: [{ url: action.url }] } : { sources: [] }) };
    case 'find_in_page':
      return { ...base, kind: 'web_fetch', url: action.url, query: action.pattern, sources: [{ url: action.url }] };
    case 'search': {
      const query = action.queries?.join('; ') || action.query;
      return { ...base, kind: 'web_search', ...(query ? { query } : {}), sources: (action.sources ?? []).map((s) => ({ url: s.url })) };
    }
    default:
      return { ...base, kind: 'web_search', sources: [] };
  }
}

/** A citation from an output_text annotation, when it is a url_citation (the SDK types the event's as unknown). */
export function urlCitation(annotation: unknown): Citation | undefined {
  const a = annotation as { type?: unknown; url?: unknown; title?: unknown } | null;
  if (a?.type !== 'url_citation' || typeof a.url !== 'string') return undefined;
  return { url: a.url, ...(typeof a.title === 'string' && a.title ? { title: a.title } : {}), raw: annotation };
}
