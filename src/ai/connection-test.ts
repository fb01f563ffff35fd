// "Test connection": one tiny request through the same adapter a run uses, so what it says holds for the next run.
// The outcome is one of four things a person can act on: it works (and how long the answer took), the key was
// rejected, the browser could not reach the endpoint (network or CORS, with the fix for local servers), or the
// provider does not offer the model. Anything else is reported with the provider's own words.
import type { FailureKind } from './errors';
import { stream as providerStream } from './stream';
import type { ProviderStreamOptions } from './providers/run-provider';
import type { Model, StreamFn } from './types';

export type ConnectionResult =
  | { kind: 'ok'; ms: number }
  | { kind: 'auth' | 'network' | 'model_not_found' | 'other'; message: string };

export type ConnectionTestOptions = {
  apiKey?: string;
  signal?: AbortSignal;
  /** Defaults to the provider adapters (tests pass a fake). */
  streamFn?: StreamFn;
  now?: () => number;
};

const PROMPT = 'Reply with the single word OK.';
/** Enough for "OK" from any model; a reasoning model that spends it thinking still proves the connection. */
const MAX_TOKENS = 32;

/** Sends one tiny request to `model`'s provider and says how it went; never throws. */
export async function testConnection(model: Model, options: ConnectionTestOptions = {}): Promise<ConnectionResult> {
  const now = options.now ?? (() => performance.now());
  let failureKind: FailureKind | undefined;
  const streamOptions: ProviderStreamOptions = {
    apiKey: options.apiKey || undefined,
    maxTokens: MAX_TOKENS,
    signal: options.signal,
    // A retry would hide what the endpoint said first, and keep the person waiting.
    retry: { maxRetries: 0 },
    onFailure: (failure) => (failureKind = failure.kind),
  };
  const started = now();
  const reply = await (options.streamFn ?? providerStream)(model, { systemPrompt: '', messages: [{ role: 'user', content: PROMPT, timestamp: Date.now() }], tools: [] }, streamOptions).result();
  if (reply.stopReason !== 'error' && reply.stopReason !== 'aborted') return { kind: 'ok', ms: Math.round(now() - started) };
  const message = reply.errorMessage ?? 'The request failed without a message.';
  switch (failureKind) {
    case 'auth':
      return { kind: 'auth', message };
    case 'network':
      return { kind: 'network', message };
    case 'model_not_found':
      return { kind: 'model_not_found', message };
    default:
      return { kind: 'other', message };
  }
}
