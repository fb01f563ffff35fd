// A real HTTP server on 127.0.0.1 that answers like Anthropic, OpenAI (chat completions and responses) and Gemini,
// streaming scripted turns over SSE, with CORS so the app page can call it, and control endpoints for e2e tests.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { readBody } from '../loopback-http';
import { anthropicBadKey, anthropicContextTooLong, anthropicError, anthropicErrorEvent, anthropicFrames, anthropicMalformedFrame } from './wire-anthropic';
import { geminiBadKey, geminiContextTooLong, geminiError, geminiErrorEvent, geminiFrames, geminiMalformedFrame } from './wire-gemini';
import { openAIBadKey, openAIChatErrorEvent, openAIChatFrames, openAIContextTooLong, openAIError, openAIMalformedFrame } from './wire-openai-chat';
import { openAIResponsesContextTooLong, openAIResponsesErrorEvent, openAIResponsesFrames, openAIResponsesMalformedFrame } from './wire-openai-responses';
import { isSummaryRequest, requestTokens } from './request-size';
import { matches, parseScript, requestFacts, type MockTurn, type WireApi } from './script';
import { DEFAULT_MODEL_LISTS, listKey, modelListApiFor, modelListPage, type MockListedModel, type ModelListApi } from './wire-models';

export type RecordedRequest = {
  api: WireApi;
  method: string;
  path: string;
  /** Lower-case header names, as Node receives them. */
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  /** What was answered: the HTTP status, and the index of the served turn in the script as loaded. */
  status: number;
  turn?: number;
  /** The model the request named, its size by Conch's pre-usage estimate, and whether it asked for a summary. */
  model: string;
  tokens: number;
  summary: boolean;
};

export type MockProvider = {
  /** e.g. http://127.0.0.1:4010 — Anthropic and Gemini base URL; OpenAI's is `${url}/v1`. */
  url: string;
  port: number;
  /** Replaces the script and the fault counters; recorded requests are kept. */
  setScript(turns: MockTurn[]): void;
  /**
   * Context windows by model id (`"*"`: any other model): a request over its model's window is refused with the
   * provider's own overflow error. Replaces the earlier setting; `{}` lifts every limit.
   */
  setContextWindows(windows: Record<string, number>): void;
  /** Every model request received, oldest first (control endpoints and preflights excluded). */
  readonly requests: RecordedRequest[];
  /** Replaces what GET /models lists for one API (see wire-models.ts for the defaults). */
  setModels(api: ModelListApi, models: MockListedModel[]): void;
  /** Every model-list request (GET), oldest first; kept apart from `requests` so scripted turns count alone. */
  readonly listRequests: { api: ModelListApi; path: string; status: number }[];
  /** Clears the script and the recorded requests. */
  reset(): void;
  close(): Promise<void>;
};

type QueuedTurn = { turn: MockTurn; index: number; faultsLeft: number; servesLeft: number };

/** Starts the mock provider; port 0 (default) picks a free port. */
export async function startMockProvider(
  options: { port?: number; script?: MockTurn[]; contextWindows?: Record<string, number> } = {},
): Promise<MockProvider> {
  let queue: QueuedTurn[] = [];
  let contextWindows: Record<string, number> = { ...options.contextWindows };
  let summaries = 0;
  const requests: RecordedRequest[] = [];
  const listRequests: MockProvider['listRequests'][number][] = [];
  const modelLists: Record<ModelListApi, MockListedModel[]> = structuredClone(DEFAULT_MODEL_LISTS);
  let serial = 0;
  const sockets = new Set<Socket>();

  const setScript = (turns: MockTurn[]) => {
    queue = turns.map((turn, index) => ({ turn, index, faultsLeft: faultTimes(turn), servesLeft: turn.times ?? 1 }));
  };
  setScript(options.script ?? []);

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(req, res, 500, { error: { message: `mock provider bug: ${String(error)}` } });
      else res.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'OPTIONS') return preflight(req, res);
    const bodyText = await readBody(req);

    if (url.pathname.startsWith('/__mock/')) return control(req, res, url.pathname, bodyText);
    const listApi = req.method === 'GET' ? modelListApiFor(req, url.pathname) : undefined;
    if (listApi) return listModels(req, res, listApi, url);
    const api = apiFor(url.pathname);
    if (!api || req.method !== 'POST') {
      return sendJson(req, res, 404, { error: { message: `mock provider: nothing at ${req.method} ${url.pathname}` } });
    }
    let body: unknown;
    try {
      body = bodyText ? JSON.parse(bodyText) : {};
    } catch {
      body = bodyText;
    }
    const model = modelOf(api, req.url ?? '', body);
    const tokens = requestTokens(api, body);
    const summary = isSummaryRequest(api, body);
    const record: RecordedRequest = {
      api, method: req.method, path: url.pathname + url.search, headers: req.headers, body, status: 200, model, tokens, summary,
    };
    requests.push(record);

    const window = contextWindows[model] ?? contextWindows['*'];
    if (window !== undefined && tokens > window) {
      record.status = 400;
      return sendJson(req, res, 400, contextTooLong(api, tokens, window));
    }
    const facts = { ...requestFacts(api, body), summary };
    const queued = queue.find((q) => matches(q.turn, facts));
    if (!queued && summary) {
      // Long scripted sessions compact many times: summaries need no turns of their own unless a test wants one.
      return streamTurn(req, res, api, { content: [{ type: 'text', text: defaultSummary(++summaries, tokens) }] }, body, tokens);
    }
    if (!queued) {
      record.status = 400;
      return sendJson(req, res, 400, errorBody(api, 400, 'mock provider: no scripted turn matches this request'));
    }
    record.turn = queued.index;
    const turn = queued.turn;
    if (turn.delayMs) await sleep(turn.delayMs);

    const fault = turn.fault;
    if ((fault?.type === 'status' || fault?.type === 'contextTooLong' || fault?.type === 'badKey' || fault?.type === 'modelNotFound') && queued.faultsLeft > 0) {
      queued.faultsLeft--;
      const headers: Record<string, string> = {};
      if (fault.type === 'status' && fault.retryAfter !== undefined) headers['retry-after'] = fault.retryAfter;
      if (fault.type === 'status' && fault.retryAfterMs !== undefined) headers['retry-after-ms'] = String(fault.retryAfterMs);
      const { status, payload } =
        fault.type === 'contextTooLong' ? { status: 400, payload: contextTooLong(api) }
        : fault.type === 'badKey' ? badKey(api)
        : fault.type === 'modelNotFound' ? { status: 404, payload: modelNotFound(api, modelOf(api, req.url ?? '', body)) }
        : { status: fault.status, payload: errorBody(api, fault.status, fault.message) };
      record.status = status;
      return sendJson(req, res, status, payload, headers);
    }
    if (--queued.servesLeft === 0) queue = queue.filter((q) => q !== queued);
    else queued.faultsLeft = faultTimes(turn);
    await streamTurn(req, res, api, turn, body, tokens);
  }

  function listModels(req: IncomingMessage, res: ServerResponse, api: ModelListApi, url: URL): void {
    // Like the real APIs, no key is no list (a keyless local server would not check, but these three do).
    if (listKey(api, req, url) === '') {
      const wire: WireApi = api === 'openai' ? 'openai-chat' : api;
      const { status, payload } = badKey(wire);
      listRequests.push({ api, path: url.pathname + url.search, status });
      return sendJson(req, res, status, payload);
    }
    listRequests.push({ api, path: url.pathname + url.search, status: 200 });
    sendJson(req, res, 200, modelListPage(api, modelLists[api], url));
  }

  async function streamTurn(req: IncomingMessage, res: ServerResponse, api: WireApi, scripted: MockTurn, body: unknown, inputTokens: number) {
    const model = modelOf(api, req.url ?? '', body);
    // Usage reports the request's size unless the script names its own.
    const turn: MockTurn = { ...scripted, usage: { input: inputTokens, ...scripted.usage } };
    const n = ++serial;
    const frames =
      api === 'anthropic' ? anthropicFrames(turn, model, n)
      : api === 'openai-chat' ? openAIChatFrames(turn, model, n, includeUsage(body))
      : api === 'openai-responses' ? openAIResponsesFrames(turn, model, n)
      : geminiFrames(turn, model, n);
    res.writeHead(200, {
      ...corsHeaders(req),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    const fault = turn.fault;
    const firstFrameAt = Date.now();
    for (let i = 0; i < frames.length; i++) {
      if (turn.frameIntervalMs && i > 0) await sleep(firstFrameAt + i * turn.frameIntervalMs - Date.now());
      if (fault && 'afterFrames' in fault && i === fault.afterFrames) {
        if (fault.type === 'disconnect') return void res.socket?.destroy();
        if (fault.type === 'malformed') return void res.end(malformedFrame(api));
        if (fault.type === 'errorEvent') return void res.end(errorEvent(api, model));
        if (fault.type === 'stall') return; // left open until the client gives up or the server closes
      }
      if (res.destroyed) return;
      // Waiting for each write to flush makes a later disconnect cut exactly here, not lose buffered frames.
      await new Promise<void>((resolve) => res.write(frames[i], () => resolve()));
      if (turn.chunkDelayMs) await sleep(turn.chunkDelayMs);
    }
    res.end();
  }

  function control(req: IncomingMessage, res: ServerResponse, path: string, bodyText: string): void {
    if (path === '/__mock/requests' && req.method === 'GET') return sendJson(req, res, 200, requests);
    if (path === '/__mock/context-windows' && req.method === 'GET') return sendJson(req, res, 200, contextWindows);
    if (path === '/__mock/context-windows' && req.method === 'POST') {
      try {
        setContextWindows(parseContextWindows(JSON.parse(bodyText)));
        return sendJson(req, res, 200, { ok: true });
      } catch (error) {
        return sendJson(req, res, 400, { error: { message: error instanceof Error ? error.message : String(error) } });
      }
    }
    if (path === '/__mock/script' && req.method === 'GET') return sendJson(req, res, 200, queue.map((q) => q.turn));
    if (path === '/__mock/reset' && req.method === 'POST') {
      reset();
      return sendJson(req, res, 200, { ok: true });
    }
    if (path === '/__mock/script' && req.method === 'POST') {
      try {
        setScript(parseScript(JSON.parse(bodyText)));
        return sendJson(req, res, 200, { ok: true, turns: queue.length });
      } catch (error) {
        return sendJson(req, res, 400, { error: { message: error instanceof Error ? error.message : String(error) } });
      }
    }
    sendJson(req, res, 404, { error: { message: `mock provider: unknown control ${req.method} ${path}` } });
  }

  function setContextWindows(windows: Record<string, number>): void {
    contextWindows = { ...windows };
  }

  function reset(): void {
    setScript([]);
    setContextWindows({});
    requests.length = 0;
    summaries = 0;
    listRequests.length = 0;
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    setScript,
    setContextWindows,
    requests,
    setModels: (api, models) => {
      modelLists[api] = models;
    },
    listRequests,
    reset,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function apiFor(path: string): WireApi | undefined {
  if (path === '/v1/messages') return 'anthropic';
  if (path === '/v1/chat/completions') return 'openai-chat';
  if (path === '/v1/responses') return 'openai-responses';
  if (/^\/v1(beta|alpha)?\/models\/[^/]+:streamGenerateContent$/.test(path)) return 'gemini';
  return undefined;
}

function modelOf(api: WireApi, url: string, body: unknown): string {
  if (api === 'gemini') return /models\/([^/:]+):/.exec(url)?.[1] ?? 'gemini-mock';
  const model = (body as { model?: unknown } | null)?.model;
  return typeof model === 'string' ? model : 'mock-model';
}

function includeUsage(body: unknown): boolean {
  return (body as { stream_options?: { include_usage?: boolean } } | null)?.stream_options?.include_usage === true;
}

function faultTimes(turn: MockTurn): number {
  const fault = turn.fault;
  return fault?.type === 'status' || fault?.type === 'contextTooLong' || fault?.type === 'badKey' || fault?.type === 'modelNotFound' ? (fault.times ?? 1) : 0;
}

function badKey(api: WireApi): { status: number; payload: unknown } {
  if (api === 'anthropic') return { status: 401, payload: anthropicBadKey() };
  if (api === 'gemini') return { status: 400, payload: geminiBadKey() };
  return { status: 401, payload: openAIBadKey() };
}

/** Each API's 404 for a model it does not serve. */
function modelNotFound(api: WireApi, model: string): unknown {
  if (api === 'anthropic') return { type: 'error', error: { type: 'not_found_error', message: `model: ${model}` } };
  if (api === 'gemini') {
    return { error: { code: 404, message: `models/${model} is not found for API version v1beta, or is not supported for generateContent.`, status: 'NOT_FOUND' } };
  }
  return { error: { message: `The model \`${model}\` does not exist or you do not have access to it.`, type: 'invalid_request_error', param: null, code: 'model_not_found' } };
}

function errorEvent(api: WireApi, model: string): string {
  if (api === 'anthropic') return anthropicErrorEvent;
  if (api === 'openai-responses') return openAIResponsesErrorEvent(model);
  if (api === 'gemini') return geminiErrorEvent;
  return openAIChatErrorEvent;
}

function errorBody(api: WireApi, status: number, message?: string): unknown {
  if (api === 'anthropic') return anthropicError(status, message);
  if (api === 'gemini') return geminiError(status, message);
  return openAIError(status, message);
}

/** The provider's own overflow error; with no sizes given (the `contextTooLong` fault), its usual example figures. */
function contextTooLong(api: WireApi, tokens?: number, window?: number): unknown {
  if (api === 'anthropic') return anthropicContextTooLong(tokens, window);
  if (api === 'gemini') return geminiContextTooLong(tokens, window);
  if (api === 'openai-responses') return openAIResponsesContextTooLong();
  return openAIContextTooLong(tokens, window);
}

/** `{ "<model id>" | "*": tokens }`, each a positive whole number. */
function parseContextWindows(value: unknown): Record<string, number> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error('Context windows are an object of model id to tokens, e.g. { "mock-model": 16384 }.');
  }
  for (const [model, tokens] of Object.entries(value)) {
    if (!Number.isInteger(tokens) || (tokens as number) < 1) throw new Error(`The context window of ${model} must be a whole number of tokens, got ${JSON.stringify(tokens)}.`);
  }
  return value as Record<string, number>;
}

/** A summary with the sections Conch asks for, naming the request it answered. */
function defaultSummary(n: number, tokens: number): string {
  return [
    '## Goal', 'Carry on with the scripted session.',
    '## Constraints and preferences', '- None stated.',
    '## Progress', '### Done', `- Mock summary ${n} of a ${tokens}-token request.`, '### In progress', '- The current step.', '### Blocked', '- Nothing.',
    '## Key decisions', '- None.',
    '## Next steps', '- Continue.',
    '## Critical context', '- This summary came from the mock provider.',
  ].join('\n');
}

function malformedFrame(api: WireApi): string {
  if (api === 'anthropic') return anthropicMalformedFrame;
  if (api === 'openai-responses') return openAIResponsesMalformedFrame;
  if (api === 'gemini') return geminiMalformedFrame;
  return openAIMalformedFrame;
}

/** The app page is cross-origin isolated (COEP require-corp), so responses also need CORP: cross-origin. */
function corsHeaders(req: IncomingMessage): Record<string, string> {
  const origin = req.headers.origin;
  return {
    'access-control-allow-origin': typeof origin === 'string' ? origin : '*',
    vary: 'Origin',
    'access-control-expose-headers': 'retry-after, retry-after-ms, request-id, x-request-id',
    'cross-origin-resource-policy': 'cross-origin',
  };
}

function preflight(req: IncomingMessage, res: ServerResponse): void {
  const requested = req.headers['access-control-request-headers'];
  res.writeHead(204, {
    ...corsHeaders(req),
    'access-control-allow-methods': 'GET, POST, OPTIONS',
    'access-control-allow-headers': typeof requested === 'string' && requested ? requested : '*',
    'access-control-max-age': '600',
    ...(req.headers['access-control-request-private-network'] === 'true' ? { 'access-control-allow-private-network': 'true' } : {}),
  });
  res.end();
}

function sendJson(req: IncomingMessage, res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    ...corsHeaders(req),
    'content-type': 'application/json',
    'request-id': `req_mock_${Date.now().toString(36)}`,
    ...headers,
  });
  res.end(JSON.stringify(body));
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}
