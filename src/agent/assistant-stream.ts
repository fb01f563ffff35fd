// One model call: consume the provider's event stream, re-emit it as message events, and always come back with an
// AssistantMessage. A provider that throws (at call time or while iterating), ends without a final message, or
// returns something malformed becomes a message with stopReason 'error'; an abort becomes 'aborted'.
import type {
  AssistantMessage,
  AssistantMessageEvent,
  AssistantMessageStream,
  Model,
  StopReason,
  StreamOptions,
  StreamRequest,
} from '../ai/types';
import { emptyUsage } from '../ai/types';
import { errorText } from '../ai/messages';
import { ABORTED, type AbortRace } from './abort';
import type { AgentEvent, AgentLoopConfig } from './types';

const ABORTED_MESSAGE = 'Request was aborted';

class StreamAborted extends Error {}

function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** Streams one assistant message (`maxTokens`, when given, overrides the config's); never rejects. */
export async function streamAssistantMessage(
  request: StreamRequest,
  config: AgentLoopConfig,
  aborts: AbortRace,
  emit: (event: AgentEvent) => void,
  maxTokens?: number,
): Promise<AssistantMessage> {
  const model = config.model;
  const signal = aborts.signal;
  let partial: AssistantMessage | undefined;
  let started = false;
  let final: AssistantMessage | undefined;

  const start = (message: AssistantMessage) => {
    started = true;
    emit({ type: 'message_start', message });
  };

  if (signal?.aborted) {
    final = endedMessage(model, undefined, 'aborted', ABORTED_MESSAGE);
  } else {
    try {
      const options: StreamOptions = { ...config.streamOptions, signal };
      if (maxTokens !== undefined) options.maxTokens = maxTokens;
      const returned: AssistantMessageStream | PromiseLike<AssistantMessageStream> = config.streamFn(model, request, options);
      // Tolerate an async StreamFn (a promise of a stream), as callers commonly write one.
      const stream = isThenable(returned) ? await aborts.race(Promise.resolve(returned)) : returned;
      if (stream === ABORTED) throw new StreamAborted();
      // A failure also surfaces through iteration; its copy in an unobserved result() must not go unhandled.
      stream.result().catch(() => undefined);
      const iterator = stream[Symbol.asyncIterator]();
      // The events are read without a race each (that cost a promise per event); the reading as a whole is raced
      // once, and stops at the first event seen after the abort, so nothing is emitted once the message has ended.
      const read = async (): Promise<AssistantMessage | undefined> => {
        for (;;) {
          const step = await iterator.next();
          if (aborts.aborted || step.done) return undefined;
          const event: AssistantMessageEvent = step.value;
          switch (event.type) {
            case 'start':
              partial = event.partial;
              if (!started) start(partial);
              break;
            case 'done':
            case 'error':
              return event.message;
            default:
              partial = event.partial;
              if (!started) start(partial);
              emit({ type: 'message_update', message: partial, event });
          }
        }
      };
      const outcome = await aborts.race(read());
      if (outcome !== undefined || signal?.aborted) {
        final = outcome === ABORTED || outcome === undefined ? endedMessage(model, partial, 'aborted', ABORTED_MESSAGE) : outcome;
        iterator.return?.()?.catch(() => undefined);
      }
      if (final === undefined) {
        // The stream ended without a done/error event: its result() is the only word left.
        const result = await aborts.race(stream.result());
        final = result === ABORTED ? endedMessage(model, partial, 'aborted', ABORTED_MESSAGE) : result;
      }
    } catch (error) {
      // The error's own text, unadorned: it is what the provider said, and what a person or a retry policy matches on.
      final = signal?.aborted
        ? endedMessage(model, partial, 'aborted', ABORTED_MESSAGE)
        : endedMessage(model, partial, 'error', errorText(error) || 'The model provider failed without a message.');
    }
  }

  final = checkedMessage(model, final, partial);
  if (!started) start(final);
  emit({ type: 'message_end', message: final });
  return final;
}

const STOP_REASONS: readonly StopReason[] = ['stop', 'length', 'toolUse', 'error', 'aborted'];

// The provider's message enters the transcript here, so it is checked here.
function checkedMessage(model: Model, message: unknown, partial: AssistantMessage | undefined): AssistantMessage {
  const candidate = message as AssistantMessage | undefined;
  if (
    typeof candidate !== 'object' ||
    candidate === null ||
    candidate.role !== 'assistant' ||
    !Array.isArray(candidate.content) ||
    !STOP_REASONS.includes(candidate.stopReason)
  ) {
    return endedMessage(model, partial, 'error', 'The model provider returned a malformed message.');
  }
  if ((candidate.stopReason === 'error' || candidate.stopReason === 'aborted') && !candidate.errorMessage) {
    return {
      ...candidate,
      errorMessage:
        candidate.stopReason === 'aborted'
          ? ABORTED_MESSAGE
          : 'The model provider reported an error without a message.',
    };
  }
  return candidate;
}

function endedMessage(
  model: Model,
  partial: AssistantMessage | undefined,
  stopReason: 'error' | 'aborted',
  errorMessage: string,
): AssistantMessage {
  return {
    role: 'assistant',
    content: partial ? partial.content.slice() : [],
    provider: model.provider,
    model: model.id,
    usage: partial?.usage ?? emptyUsage(),
    stopReason,
    errorMessage,
    timestamp: Date.now(),
  };
}
