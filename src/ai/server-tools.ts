// The provider's own web tools seen from outside a provider: which models have them, and what one search or fetch
// reads as in plain text (for another model, a summary call or an export).
import type { Model, ServerToolContent } from './types';

/** Whether `model` can be offered its provider's server-side web search and fetch. */
export function hasWebTools(model: Model): boolean {
  return model.webTools !== undefined;
}

/** One line for a search or fetch: what was asked and what came back ("Searched the web for "x": a, b"). */
export function serverToolText(block: ServerToolContent): string {
  const what = block.kind === 'web_search' ? `Searched the web for "${block.query ?? ''}"` : `Fetched ${block.url ?? 'a page'}`;
  if (block.error) return `${what}: failed (${block.error})`;
  const sources = block.sources.map((source) => source.url);
  return sources.length > 0 ? `${what}: ${sources.join(', ')}` : what;
}

/** Whether a reply's server-tool blocks may go back to `model` as they are: only their own provider reads them. */
export function sameServerToolProvider(block: ServerToolContent, model: Model): boolean {
  return block.provider === model.provider;
}

/** Whether a source's address may become a link: http(s) only, so a provider's `javascript:` or `data:` stays text. */
export function isWebAddress(url: string): boolean {
  return /^https?:\/\//i.test(url);
}
