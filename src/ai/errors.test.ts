import { describe, expect, it, vi } from 'vitest';
import { classifyFacts, classifyProviderError, networkFailureMessage, retryAfterOf } from './errors';
import { retryDelay } from './retry';

const ctx = { providerLabel: 'Anthropic' };

describe('classifying provider failures', () => {
  it('does not retry a rejected key and quotes the provider', () => {
    const failure = classifyFacts({ status: 401, providerText: 'invalid x-api-key' }, ctx);
    expect(failure).toMatchObject({ kind: 'auth', retryable: false });
    expect(failure.message).toBe('Anthropic rejected the key (HTTP 401). Check the API key in settings. The provider said: "invalid x-api-key"');
    expect(classifyFacts({ status: 403 }, ctx).kind).toBe('auth');
  });

  it('retries rate limits, overload and server errors', () => {
    expect(classifyFacts({ status: 429 }, ctx)).toMatchObject({ kind: 'rate_limit', retryable: true });
    expect(classifyFacts({ status: 529 }, ctx)).toMatchObject({ kind: 'overloaded', retryable: true });
    expect(classifyFacts({ code: 'overloaded_error', providerText: 'Overloaded' }, ctx)).toMatchObject({ kind: 'overloaded', retryable: true });
    expect(classifyFacts({ status: 503 }, ctx)).toMatchObject({ kind: 'server', retryable: true });
    expect(classifyFacts({ status: 400, providerText: 'bad field' }, ctx)).toMatchObject({ kind: 'bad_request', retryable: false });
  });

  it.each([
    ['prompt is too long: 213000 tokens > 200000 maximum', undefined],
    ["This model's maximum context length is 128000 tokens.", 'context_length_exceeded'],
    ['The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).', undefined],
  ])('recognises a context that no longer fits: %s', (providerText, code) => {
    const failure = classifyFacts({ status: 400, providerText, code }, ctx);
    expect(failure.kind).toBe('context_overflow');
    expect(failure.message).toMatch(/^The conversation no longer fits the model's context window \(/);
  });

  it('reads the SDK error shapes', () => {
    const anthropic = Object.assign(new Error('429 {...}'), {
      status: 429, headers: new Headers({ 'retry-after': '7' }),
      error: { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } },
    });
    expect(classifyProviderError(anthropic, ctx)).toMatchObject({ kind: 'rate_limit', retryAfterMs: 7000 });
    const gemini = Object.assign(new Error('{"error":{"code":429,"message":"quota","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"13s"}]}}'), { status: 429 });
    expect(classifyProviderError(gemini, ctx)).toMatchObject({ kind: 'rate_limit', retryAfterMs: 13_000 });
    expect(classifyProviderError(gemini, ctx).message).toContain('"quota"');
    const abort = Object.assign(new Error('Request was aborted.'), { name: 'APIUserAbortError' });
    expect(classifyProviderError(abort, ctx).kind).toBe('aborted');
    expect(classifyProviderError(new TypeError('Failed to fetch'), ctx).kind).toBe('network');
    const connection = Object.assign(new Error('Connection error.'), { name: 'APIConnectionError' });
    expect(classifyProviderError(connection, ctx).kind).toBe('network');
    // In a minified build the SDK's error class keeps neither its name nor its class name, only its message.
    expect(classifyProviderError(new Error('Connection error.'), ctx).kind).toBe('network');
  });
});

describe('real error bodies, as each SDK raises them', () => {
  const gemini = (status: number, body: unknown) => Object.assign(new Error(JSON.stringify(body)), { name: 'ApiError', status });

  it('reports a bad Gemini key as a rejected key although Gemini answers 400', () => {
    const error = gemini(400, { error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT',
      details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' }] } });
    const failure = classifyProviderError(error, { providerLabel: 'Google' });
    expect(failure).toMatchObject({ kind: 'auth', retryable: false });
    expect(failure.message).toBe('Google rejected the key (HTTP 400). Check the API key in settings. The provider said: "API key not valid. Please pass a valid API key."');
  });

  it('reports a Gemini 403 PERMISSION_DENIED as a rejected key', () => {
    const error = gemini(403, { error: { code: 403, message: "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.", status: 'PERMISSION_DENIED' } });
    expect(classifyProviderError(error, { providerLabel: 'Google' }).kind).toBe('auth');
  });

  it('keeps a Gemini 400 that is not about the key a refused request', () => {
    const error = gemini(400, { error: { code: 400, message: 'Invalid JSON payload received. Unknown name "foo"', status: 'INVALID_ARGUMENT' } });
    expect(classifyProviderError(error, { providerLabel: 'Google' })).toMatchObject({ kind: 'bad_request', retryable: false });
  });

  it('recognises Gemini overload (503 UNAVAILABLE) sent in the middle of a stream', () => {
    const error = Object.assign(new Error('got status: UNAVAILABLE. {"error":{"code":503,"message":"The model is overloaded. Please try again later.","status":"UNAVAILABLE"}}'), { name: 'ApiError', status: 503 });
    const failure = classifyProviderError(error, { providerLabel: 'Google' });
    expect(failure).toMatchObject({ kind: 'overloaded', retryable: true });
    expect(failure.message).toContain('The model is overloaded. Please try again later.');
  });

  it('does not retry an OpenAI account that is out of quota, and says what to do', () => {
    const error = Object.assign(new Error('429 You exceeded your current quota, please check your plan and billing details.'), {
      status: 429, headers: new Headers(),
      error: { message: 'You exceeded your current quota, please check your plan and billing details.', type: 'insufficient_quota', param: null, code: 'insufficient_quota' },
    });
    const failure = classifyProviderError(error, { providerLabel: 'OpenAI' });
    expect(failure).toMatchObject({ kind: 'quota', retryable: false });
    expect(failure.message).toMatch(/^OpenAI says this account is out of credit or quota.*billing/);
  });

  it('reads an Anthropic error event sent mid-stream (no HTTP status)', () => {
    const error = Object.assign(new Error('{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}'), {
      status: undefined, error: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
    });
    expect(classifyProviderError(error, ctx)).toMatchObject({ kind: 'overloaded', retryable: true });
  });

  it('recognises an OpenAI context overflow by its code and an Anthropic one by its text', () => {
    const openai = Object.assign(new Error('400 Your input exceeds the context window of this model.'), {
      status: 400, headers: new Headers(),
      error: { message: 'Your input exceeds the context window of this model. Please adjust your input and try again.', type: 'invalid_request_error', param: 'input', code: 'context_length_exceeded' },
    });
    expect(classifyProviderError(openai, { providerLabel: 'OpenAI' }).kind).toBe('context_overflow');
    const anthropic = Object.assign(new Error('400 {...}'), {
      status: 400, headers: new Headers(),
      error: { type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long: 208310 tokens > 200000 maximum' } },
    });
    expect(classifyProviderError(anthropic, ctx).message).toMatch(/no longer fits.*prompt is too long: 208310 tokens > 200000 maximum/);
  });
});

describe('network failures', () => {
  it('tells Ollama users what to set', () => {
    expect(networkFailureMessage('Ollama', 'http://localhost:11434/v1')).toMatch(/OLLAMA_ORIGINS=\*/);
  });
  it('tells LM Studio users to enable CORS', () => {
    expect(networkFailureMessage('LM Studio', 'http://127.0.0.1:1234/v1')).toMatch(/Enable "CORS"/);
  });
  it('mentions CORS headers for other local servers and the connection for remote ones', () => {
    expect(networkFailureMessage('Custom', 'http://localhost:8080/v1')).toMatch(/Access-Control-Allow-Origin/);
    expect(networkFailureMessage('OpenAI')).toMatch(/Check your connection/);
  });
  it('says "you are offline" when the browser has no network, except for a server on this machine', () => {
    vi.stubGlobal('navigator', { onLine: false });
    try {
      expect(networkFailureMessage('Anthropic', 'https://api.anthropic.com')).toMatch(/^You are offline: Anthropic cannot be reached\./);
      expect(networkFailureMessage('OpenAI')).toMatch(/^You are offline/);
      expect(networkFailureMessage('Ollama', 'http://localhost:11434/v1')).toMatch(/^Could not reach Ollama.*OLLAMA_ORIGINS/);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('retry-after and backoff', () => {
  it('reads retry-after-ms, seconds and HTTP dates', () => {
    expect(retryAfterOf(new Headers({ 'retry-after-ms': '250' }))).toBe(250);
    expect(retryAfterOf({ 'retry-after': '3' })).toBe(3000);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterOf({ 'retry-after': 'Thu, 01 Jan 2026 00:00:10 GMT' }, now)).toBe(10_000);
    expect(retryAfterOf({ 'retry-after': 'soon' })).toBeUndefined();
    expect(retryAfterOf(undefined)).toBeUndefined();
  });

  it('backs off exponentially from near 2 s with jitter, unless the provider says how long', () => {
    const policy = { maxRetries: 3, baseDelayMs: 2000, maxDelayMs: 60_000 };
    expect(retryDelay(1, policy, undefined, () => 0.5)).toBe(2000);
    expect(retryDelay(2, policy, undefined, () => 0.5)).toBe(4000);
    expect(retryDelay(3, policy, undefined, () => 0.5)).toBe(8000);
    expect(retryDelay(1, policy, undefined, () => 0)).toBe(1500);
    expect(retryDelay(1, policy, undefined, () => 1)).toBe(2500);
    expect(retryDelay(2, policy, 700)).toBe(700);
  });
});
