// The models a key can use, asked of the provider itself, in each provider's own wire format:
//   anthropic          GET {root}/v1/models?limit=1000        x-api-key; reports input and output limits, lifecycle
//   openai             GET {base}/models                       Bearer key; ids only
//   google             GET {root}/v1beta/models?pageSize=1000  x-goog-api-key; reports input and output limits
//   openai-compatible  GET {base}/models                       Bearer key when given; OpenRouter adds context_length
// All four answer a browser's cross-origin request. Plain fetch: no SDK is loaded just to list models.
import { classifyFacts, networkFailureMessage } from './errors';
import { PROVIDER_LABELS, type ProviderId } from './provider-id';

export type ListedModel = {
  id: string;
  name?: string;
  /** Input context window the provider reported (Anthropic, Gemini, OpenRouter). */
  contextWindow?: number;
  /** Output limit the provider reported. */
  maxTokens?: number;
  /** The provider says the model is deprecated or retired (Anthropic's lifecycle). */
  lifecycle?: 'deprecated' | 'retired';
  /** When the provider retires it (ISO date), when reported. */
  retiresAt?: string;
};

export type ModelListRequest = {
  provider: ProviderId;
  /** Empty or absent: the provider's own endpoint. */
  baseUrl?: string;
  apiKey?: string;
  signal?: AbortSignal;
  fetch?: typeof fetch;
};

/** Why the list could not be fetched, written for the person (`kind` tells the UI which advice applies). */
export class ModelListError extends Error {
  constructor(
    message: string,
    readonly kind: 'auth' | 'network' | 'http' | 'format',
  ) {
    super(message);
    this.name = 'ModelListError';
  }
}

export const DEFAULT_BASE_URLS: Record<Exclude<ProviderId, 'openai-compatible'>, string> = {
  anthropic: 'https://api.anthropic.com',
  openai: 'https://api.openai.com/v1',
  google: 'https://generativelanguage.googleapis.com',
};

/** OpenAI lists every model of the account; these cannot hold a conversation. */
const NOT_CHAT = /embed|whisper|tts|dall-e|moderation|transcribe|^davinci|^babbage/i;
/** Pages are followed up to this many, so a misbehaving server cannot keep the list loading forever. */
const MAX_PAGES = 20;

/** Every model the key can use at the provider; throws ModelListError. */
export async function fetchModelList(request: ModelListRequest): Promise<ListedModel[]> {
  const base = baseUrlOf(request);
  switch (request.provider) {
    case 'anthropic':
      return listAnthropic(request, base);
    case 'google':
      return listGemini(request, base);
    case 'openai':
    case 'openai-compatible':
      return listOpenAI(request, base);
    default: {
      const unreachable: never = request.provider;
      throw new ModelListError(`Unknown provider ${String(unreachable)}.`, 'format');
    }
  }
}

function baseUrlOf(request: ModelListRequest): string {
  const typed = request.baseUrl?.trim().replace(/\/+$/, '');
  if (typed) return typed;
  if (request.provider === 'openai-compatible') throw new ModelListError('Set the base URL of the endpoint first.', 'format');
  return DEFAULT_BASE_URLS[request.provider];
}

type AnthropicPage = { data?: unknown; has_more?: unknown; last_id?: unknown };

async function listAnthropic(request: ModelListRequest, base: string): Promise<ListedModel[]> {
  const headers = {
    'x-api-key': request.apiKey ?? '',
    'anthropic-version': '2023-06-01',
    // Anthropic refuses browser requests unless they say they mean it; the key is the person's own.
    'anthropic-dangerous-direct-browser-access': 'true',
  };
  const models: ListedModel[] = [];
  let after: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const url = `${base}/v1/models?limit=1000${after ? `&after_id=${encodeURIComponent(after)}` : ''}`;
    const body = (await getJson(request, url, headers)) as AnthropicPage;
    if (!Array.isArray(body.data)) throw formatError(request);
    for (const item of body.data) {
      const info = record(item);
      const id = text(info.id);
      if (!id) continue;
      const lifecycle = info.lifecycle === 'deprecated' || info.lifecycle === 'retired' ? info.lifecycle : undefined;
      models.push({
        id,
        name: text(info.display_name),
        contextWindow: positive(info.max_input_tokens),
        maxTokens: positive(info.max_tokens),
        lifecycle,
        retiresAt: text(info.retires_at)?.slice(0, 10),
      });
    }
    after = text(body.last_id);
    if (body.has_more !== true || !after) break;
  }
  return models;
}

async function listOpenAI(request: ModelListRequest, base: string): Promise<ListedModel[]> {
  const headers: Record<string, string> = request.apiKey ? { authorization: `Bearer ${request.apiKey}` } : {};
  const body = record(await getJson(request, `${base}/models`, headers));
  if (!Array.isArray(body.data)) throw formatError(request);
  return body.data.flatMap((item): ListedModel[] => {
    const info = record(item);
    const id = text(info.id);
    if (!id || NOT_CHAT.test(id)) return [];
    const top = record(info.top_provider);
    return [{
      id,
      name: text(info.name),
      // OpenRouter (and a few others) report limits; OpenAI itself reports only ids.
      contextWindow: positive(info.context_length) ?? positive(info.context_window),
      maxTokens: positive(top.max_completion_tokens) ?? positive(info.max_output_tokens),
    }];
  });
}

async function listGemini(request: ModelListRequest, base: string): Promise<ListedModel[]> {
  const headers = { 'x-goog-api-key': request.apiKey ?? '' };
  const models: ListedModel[] = [];
  let token: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const url = `${base}/v1beta/models?pageSize=1000${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`;
    const body = record(await getJson(request, url, headers));
    if (!Array.isArray(body.models)) throw formatError(request);
    for (const item of body.models) {
      const info = record(item);
      const id = text(info.name)?.replace(/^models\//, '');
      const methods = Array.isArray(info.supportedGenerationMethods) ? info.supportedGenerationMethods : [];
      // Embedding, image and speech models cannot hold a conversation.
      if (!id || !methods.includes('generateContent')) continue;
      models.push({ id, name: text(info.displayName), contextWindow: positive(info.inputTokenLimit), maxTokens: positive(info.outputTokenLimit) });
    }
    token = text(body.nextPageToken);
    if (!token) break;
  }
  return models;
}

async function getJson(request: ModelListRequest, url: string, headers: Record<string, string>): Promise<unknown> {
  const doFetch = request.fetch ?? globalThis.fetch.bind(globalThis);
  const label = PROVIDER_LABELS[request.provider].short;
  let response: Response;
  try {
    response = await doFetch(url, { headers, signal: request.signal });
  } catch (error) {
    if (request.signal?.aborted) throw error;
    throw new ModelListError(networkFailureMessage(label, request.baseUrl?.trim() || baseUrlOf(request)), 'network');
  }
  const body = await response.text();
  let parsed: unknown;
  try {
    parsed = body ? JSON.parse(body) : {};
  } catch {
    parsed = undefined;
  }
  if (!response.ok) {
    const failure = classifyFacts({ status: response.status, providerText: errorText(parsed) ?? body.slice(0, 200), code: errorCode(parsed) }, { providerLabel: label });
    throw new ModelListError(failure.message, failure.kind === 'auth' ? 'auth' : 'http');
  }
  if (parsed === undefined) throw formatError(request);
  return parsed;
}

function formatError(request: ModelListRequest): ModelListError {
  return new ModelListError(`${PROVIDER_LABELS[request.provider].short} answered the model list in a form Conch does not know; type the model id instead.`, 'format');
}

/** The message in any of the providers' error bodies: {error:{message}} (all three) or {error:"..."}. */
function errorText(body: unknown): string | undefined {
  const error = record(body).error;
  return typeof error === 'string' ? error : text(record(error).message);
}

function errorCode(body: unknown): string | undefined {
  const error = record(record(body).error);
  return text(error.type) ?? text(error.code) ?? text(error.status);
}

const record = (value: unknown): Record<string, unknown> => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {});
const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const positive = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : undefined);
