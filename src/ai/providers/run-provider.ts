// The part every adapter shares: start the stream, run one attempt, retry what is worth retrying, and turn every
// failure into an `error` event. Nothing thrown by an SDK escapes from here.
import { classifyProviderError, type ProviderFailure } from '../errors';
import { DEFAULT_RETRY_POLICY, retryDelay, sleep, type RetryPolicy } from '../retry';
import type { AssistantMessageStream, Model, StopReason, StreamOptions } from '../types';
import { AssistantMessageBuilder } from './assistant-builder';

/** StreamOptions plus knobs that tests (and only rarely the app) need. Still a valid StreamFn options bag. */
export type ProviderStreamOptions = StreamOptions & {
  retry?: Partial<RetryPolicy>;
  /** Replaces globalThis.fetch for the SDKs (tests, proxies). */
  fetch?: typeof fetch;
  /** Told the classified failure that ends the stream with an error (the connection test names its kind). */
  onFailure?: (failure: ProviderFailure) => void;
};

export type AttemptContext = {
  builder: AssistantMessageBuilder;
  signal: AbortSignal;
  options: ProviderStreamOptions;
};

/**
 * One request/stream of the provider. Resolves with the mapped stop reason, or undefined when the stream ended
 * without one (the connection closed early). Throws whatever the SDK threw.
 */
export type Attempt = (context: AttemptContext) => Promise<AttemptOutcome>;
export type AttemptOutcome = Extract<StopReason, 'stop' | 'length' | 'toolUse'> | { refused: string } | undefined;

/** Runs `attempt` with retries and maps every outcome onto the unified stream. */
export function runProvider(
  model: Model,
  providerLabel: string,
  options: ProviderStreamOptions | undefined,
  attempt: Attempt,
): AssistantMessageStream {
  const builder = new AssistantMessageBuilder(model);
  void drive(builder, model, providerLabel, options ?? {}, attempt);
  return builder.stream;
}

async function drive(
  builder: AssistantMessageBuilder,
  model: Model,
  providerLabel: string,
  options: ProviderStreamOptions,
  attempt: Attempt,
): Promise<void> {
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  // A private controller so the SDK request is cancelled however the caller's signal is wired.
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) controller.abort();
  const context = { providerLabel, baseUrl: model.baseUrl };

  try {
    builder.start();
    for (let retry = 0; ; retry++) {
      let failure: ProviderFailure;
      try {
        if (controller.signal.aborted) return void builder.fail('aborted', ABORTED);
        const stopReason: AttemptOutcome = await attempt({ builder, signal: controller.signal, options });
        // The SDKs end their iterators quietly when aborted, so the signal is the only reliable witness.
        if (controller.signal.aborted) return void builder.fail('aborted', ABORTED);
        if (typeof stopReason === 'object') return void builder.fail('error', stopReason.refused);
        if (stopReason) return void builder.finish(stopReason);
        failure = {
          kind: 'stream',
          retryable: !builder.hasContent,
          message: `The connection to ${providerLabel} closed before the reply finished. Try again.`,
        };
      } catch (error) {
        if (controller.signal.aborted) return void builder.fail('aborted', ABORTED);
        failure = classifyProviderError(error, context);
        if (failure.kind === 'aborted') return void builder.fail('aborted', ABORTED);
        if (!isHttpFailure(failure) && builder.hasContent) failure = streamBroke(providerLabel, failure);
      }
      const canRetry = failure.retryable && !builder.hasContent && retry < policy.maxRetries;
      if (!canRetry) {
        options.onFailure?.(failure);
        return void builder.fail('error', failure.message + retriesNote(retry));
      }
      if (failure.retryAfterMs !== undefined && failure.retryAfterMs > policy.maxDelayMs) {
        const seconds = Math.ceil(failure.retryAfterMs / 1000);
        return void builder.fail('error', `${failure.message} ${providerLabel} asks to wait ${seconds} s before trying again.`);
      }
      const delayMs = retryDelay(retry + 1, policy, failure.retryAfterMs);
      options.onRetry?.({ attempt: retry + 1, delayMs, reason: failure.message });
      if (!(await sleep(delayMs, controller.signal))) return void builder.fail('aborted', ABORTED);
    }
  } catch (error) {
    // Only a bug in an adapter lands here; the person still gets a message instead of a hung stream.
    builder.fail('error', `Conch could not handle the reply from ${providerLabel}: ${String(error)}`);
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
}

const ABORTED = 'Stopped before the reply finished.';

function isHttpFailure(failure: ProviderFailure): boolean {
  return ['auth', 'quota', 'rate_limit', 'overloaded', 'server', 'context_overflow', 'bad_request', 'model_not_found'].includes(failure.kind);
}

function streamBroke(providerLabel: string, cause: ProviderFailure): ProviderFailure {
  return {
    kind: 'stream',
    retryable: false,
    message: `The reply from ${providerLabel} broke off midway (${cause.message}). What arrived is kept; try again.`,
  };
}

function retriesNote(retries: number): string {
  return retries > 0 ? ` (gave up after ${retries} ${retries === 1 ? 'retry' : 'retries'})` : '';
}
