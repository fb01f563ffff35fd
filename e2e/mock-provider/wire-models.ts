// The model lists, in each API's own format: Anthropic GET /v1/models (paged with has_more/last_id, with limits and
// lifecycle), OpenAI (and OpenAI-compatible endpoints) GET /v1/models, Gemini GET /v1beta/models (paged with
// nextPageToken, with token limits and generation methods). Anthropic and OpenAI share the path: the request's
// `anthropic-version` header tells them apart, as it would tell the two real hosts apart.
import type { IncomingMessage } from 'node:http';

export type ModelListApi = 'anthropic' | 'openai' | 'gemini';
export type MockListedModel = { id: string; name?: string; contextWindow?: number; maxTokens?: number; lifecycle?: 'active' | 'deprecated' | 'retired'; retiresAt?: string };

/** What the mock lists by default: current and deprecated models, one the catalog does not know, and a non-chat one. */
export const DEFAULT_MODEL_LISTS: Record<ModelListApi, MockListedModel[]> = {
  anthropic: [
    { id: 'claude-sonnet-5-5', name: 'Claude Sonnet 5.5', contextWindow: 1_000_000, maxTokens: 128_000 },
    { id: 'claude-opus-5-5', name: 'Claude Opus 5.5', contextWindow: 1_000_000, maxTokens: 128_000 },
    { id: 'claude-haiku-4-5', name: 'Claude Haiku 4.5', contextWindow: 200_000, maxTokens: 64_000 },
    { id: 'claude-lab-7', name: 'Claude Lab 7', contextWindow: 640_000, maxTokens: 96_000 },
    { id: 'claude-opus-4-5', name: 'Claude Opus 4.5', contextWindow: 200_000, maxTokens: 64_000, lifecycle: 'deprecated', retiresAt: '2027-01-22T00:00:00Z' },
    { id: 'claude-sonnet-4-5', name: 'Claude Sonnet 4.5', contextWindow: 200_000, maxTokens: 64_000, lifecycle: 'deprecated', retiresAt: '2026-11-30T00:00:00Z' },
  ],
  openai: [
    { id: 'gpt-5.6-terra' },
    { id: 'gpt-5.6-luna' },
    { id: 'gpt-5-mini' },
    { id: 'mock-model' },
    { id: 'text-embedding-3-small' },
  ],
  gemini: [
    { id: 'gemini-3.5-flash', name: 'Gemini 3.5 Flash', contextWindow: 1_048_576, maxTokens: 65_536 },
    { id: 'gemini-2.5-flash', name: 'Gemini 2.5 Flash', contextWindow: 1_048_576, maxTokens: 65_536 },
    { id: 'gemini-lab-exp', name: 'Gemini Lab (experimental)', contextWindow: 2_097_152, maxTokens: 32_768 },
    { id: 'text-embedding-004', name: 'Text Embedding 004' },
  ],
};

/** Which list a GET asks for, or undefined when the path is not a model list. */
export function modelListApiFor(req: IncomingMessage, path: string): ModelListApi | undefined {
  if (path === '/v1/models') return typeof req.headers['anthropic-version'] === 'string' ? 'anthropic' : 'openai';
  if (/^\/v1(beta|alpha)?\/models$/.test(path)) return 'gemini';
  return undefined;
}

/** The key the request carries in that API's header, or '' (Gemini also accepts ?key=). */
export function listKey(api: ModelListApi, req: IncomingMessage, url: URL): string {
  const header = (name: string) => (typeof req.headers[name] === 'string' ? (req.headers[name] as string) : '');
  if (api === 'anthropic') return header('x-api-key');
  if (api === 'gemini') return header('x-goog-api-key') || url.searchParams.get('key') || '';
  return header('authorization').replace(/^Bearer\s+/i, '');
}

const CREATED = Date.UTC(2026, 5, 1) / 1000;

/** One page of the list in the API's format; `url` carries the paging parameters. */
export function modelListPage(api: ModelListApi, models: MockListedModel[], url: URL): unknown {
  if (api === 'openai') {
    return { object: 'list', data: models.map((m) => ({ id: m.id, object: 'model', created: CREATED, owned_by: 'mock' })) };
  }
  if (api === 'anthropic') {
    const limit = clamp(Number(url.searchParams.get('limit') ?? 20), 1, 1000);
    const afterId = url.searchParams.get('after_id');
    const start = afterId ? models.findIndex((m) => m.id === afterId) + 1 : 0;
    const page = models.slice(start, start + limit);
    return {
      data: page.map((m) => ({
        type: 'model',
        id: m.id,
        display_name: m.name ?? m.id,
        created_at: '2026-06-01T00:00:00Z',
        lifecycle: m.lifecycle ?? 'active',
        deprecated_at: m.lifecycle && m.lifecycle !== 'active' ? '2026-06-01T00:00:00Z' : null,
        retires_at: m.retiresAt ?? null,
        max_input_tokens: m.contextWindow ?? null,
        max_tokens: m.maxTokens ?? null,
        line: null,
        capabilities: null,
      })),
      has_more: start + limit < models.length,
      first_id: page[0]?.id ?? null,
      last_id: page.at(-1)?.id ?? null,
    };
  }
  const size = clamp(Number(url.searchParams.get('pageSize') ?? 50), 1, 1000);
  const start = Number(url.searchParams.get('pageToken') ?? 0) || 0;
  const page = models.slice(start, start + size);
  return {
    models: page.map((m) => ({
      name: `models/${m.id}`,
      version: '001',
      displayName: m.name ?? m.id,
      inputTokenLimit: m.contextWindow ?? 2048,
      outputTokenLimit: m.maxTokens ?? 1,
      supportedGenerationMethods: m.id.startsWith('text-embedding') ? ['embedContent'] : ['generateContent', 'countTokens'],
    })),
    ...(start + size < models.length ? { nextPageToken: String(start + size) } : {}),
  };
}

const clamp = (n: number, min: number, max: number) => (Number.isFinite(n) ? Math.min(max, Math.max(min, Math.floor(n))) : min);
