// A provider that replays prepared assistant turns in-process, streamed exactly like a real adapter would:
// `start`, text/thinking/tool-call deltas on one growing partial message, then `done` or `error`.
// Tests and benchmarks use it; a turn may be a function of the request so a script can react to tool results.
import type {
  AssistantMessage,
  AssistantMessageEvent,
  AssistantMessageStream,
  Model,
  StopReason,
  StreamFn,
  StreamOptions,
  StreamRequest,
  TextContent,
  ThinkingContent,
  ToolCall,
  Usage,
} from '../types';
import { emptyUsage } from '../types';

/** A tool call to replay; `id` defaults to `call_<turn>_<index>`. */
export type ScriptedToolCall = { type: 'toolCall'; name: string; arguments: Record<string, unknown>; id?: string };
export type ScriptedBlock = TextContent | ThinkingContent | ScriptedToolCall;

export interface ScriptedTurn {
  /** A string is one text block. */
  content: string | ScriptedBlock[];
  /** Default: 'toolUse' when the content has tool calls, else 'stop'. 'error' and 'aborted' end with an error event. */
  stopReason?: StopReason;
  errorMessage?: string;
  usage?: Partial<Usage>;
  /** Wait this long before each streamed event; an abort during the wait ends the turn as 'aborted'. */
  delayMs?: number;
  /** Characters per text, thinking or tool-argument delta; default: each block in one delta. */
  chunkSize?: number;
  /** Make the provider fail: throw this from `streamFn` itself ('call') or from iteration after the content. */
  throws?: unknown;
  throwAt?: 'call' | 'stream';
}

export type ScriptedTurnInfo = { turn: number; model: Model; options?: StreamOptions };
/** Builds a turn from the request; may return a promise and may throw (synchronously: `streamFn` throws). */
export type ScriptedTurnFactory = (
  request: StreamRequest,
  info: ScriptedTurnInfo,
) => ScriptedTurn | string | Promise<ScriptedTurn | string>;
export type ScriptedTurnInput = ScriptedTurn | string | ScriptedTurnFactory;

export interface ScriptedStreamFn extends StreamFn {
  /** Every request received, in order, with a copy of its messages as they were (unless recordRequests is false). */
  readonly requests: StreamRequest[];
  /** The options of every call, in order. */
  readonly options: (StreamOptions | undefined)[];
}

export type ScriptedSettings = {
  /**
   * Keep every request in `requests` (default true). A long benchmark turns it off: holding thousands of
   * transcript snapshots measures the garbage collector rather than the code under test.
   */
  recordRequests?: boolean;
};

/** Builders that keep scripts short: `toolCall('read', { path: 'a.ts' })`. */
export function toolCall(name: string, args: Record<string, unknown>, id?: string): ScriptedToolCall {
  const call: ScriptedToolCall = { type: 'toolCall', name, arguments: args };
  if (id !== undefined) call.id = id;
  return call;
}
export function text(value: string): TextContent {
  return { type: 'text', text: value };
}
export function thinking(value: string): ThinkingContent {
  return { type: 'thinking', thinking: value };
}

/**
 * A StreamFn replaying `turns` in order (one per call), or asking `turns(request, info)` for every call.
 * Running out of turns yields an 'error' message saying so, so a test with too short a script fails loudly.
 */
export function createScriptedStreamFn(
  turns: ScriptedTurnInput[] | ScriptedTurnFactory,
  settings: ScriptedSettings = {},
): ScriptedStreamFn {
  const requests: StreamRequest[] = [];
  const optionsSeen: (StreamOptions | undefined)[] = [];
  let turn = -1;
  const streamFn = (model: Model, request: StreamRequest, options?: StreamOptions): AssistantMessageStream => {
    turn++;
    if (settings.recordRequests !== false) {
      requests.push({ ...request, messages: request.messages.slice() }); // the caller may append to its array later
      optionsSeen.push(options);
    }
    const input = typeof turns === 'function' ? turns : turns[turn];
    let planned: ScriptedTurn | string | Promise<ScriptedTurn | string>;
    if (input === undefined) {
      planned = {
        content: [],
        stopReason: 'error',
        errorMessage: `Scripted provider has no turn ${turn + 1} (the script has ${turns.length} turns).`,
      };
    } else {
      planned = typeof input === 'function' ? input(request, { turn, model, options }) : input;
    }
    const immediate = typeof planned === 'object' && !isPromise(planned) ? planned : undefined;
    if (immediate?.throwAt === 'call' && immediate.throws !== undefined) throw immediate.throws;
    const stream = new ReplayStream();
    void replay(stream, planned, model, turn, options?.signal);
    return stream;
  };
  return Object.assign(streamFn, { requests, options: optionsSeen });
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown }).then === 'function';
}

async function replay(
  stream: ReplayStream,
  planned: ScriptedTurn | string | Promise<ScriptedTurn | string>,
  model: Model,
  turnIndex: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  try {
    const resolved = isPromise(planned) ? await planned : planned;
    const turn: ScriptedTurn = typeof resolved === 'string' ? { content: resolved } : resolved;
    await play(stream, turn, model, turnIndex, signal);
  } catch (error) {
    stream.fail(error);
  }
}

async function play(
  stream: ReplayStream,
  turn: ScriptedTurn,
  model: Model,
  turnIndex: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  const partial: AssistantMessage = {
    role: 'assistant',
    content: [],
    provider: model.provider,
    model: model.id,
    usage: { ...emptyUsage(), ...turn.usage },
    stopReason: 'stop',
    timestamp: Date.now(),
  };
  const steps = plannedSteps(turn, partial, turnIndex);
  const delayMs = turn.delayMs ?? 0;
  for (const step of steps) {
    if (delayMs > 0) await sleep(delayMs, signal);
    if (signal?.aborted) return endAborted(stream, partial);
    stream.push(step());
  }
  if (turn.throws !== undefined) throw turn.throws;
  const hasToolCalls = partial.content.some((block) => block.type === 'toolCall');
  partial.stopReason = turn.stopReason ?? (hasToolCalls ? 'toolUse' : 'stop');
  if (partial.stopReason === 'error' || partial.stopReason === 'aborted') {
    partial.errorMessage =
      turn.errorMessage ?? (partial.stopReason === 'error' ? 'Scripted provider error' : 'Request was aborted');
    stream.push({ type: 'error', message: partial });
  } else {
    stream.push({ type: 'done', message: partial });
  }
  stream.end(partial);
}

/** One function per streamed event, each growing `partial` by its piece; the caller paces and may stop them. */
function plannedSteps(
  turn: ScriptedTurn,
  partial: AssistantMessage,
  turnIndex: number,
): (() => AssistantMessageEvent)[] {
  const blocks = typeof turn.content === 'string' ? [text(turn.content)] : turn.content;
  const chunkSize = turn.chunkSize ?? Infinity;
  const steps: (() => AssistantMessageEvent)[] = [() => ({ type: 'start', partial })];
  blocks.forEach((block, contentIndex) => {
    if (block.type === 'text') {
      const target: TextContent = { type: 'text', text: '' };
      chunks(block.text, chunkSize).forEach((delta, i) =>
        steps.push(() => {
          if (i === 0) partial.content.push(target);
          target.text += delta;
          return { type: 'text_delta', contentIndex, delta, partial };
        }),
      );
    } else if (block.type === 'thinking') {
      const target: ThinkingContent = { type: 'thinking', thinking: '' };
      if (block.signature !== undefined) target.signature = block.signature;
      chunks(block.thinking, chunkSize).forEach((delta, i) =>
        steps.push(() => {
          if (i === 0) partial.content.push(target);
          target.thinking += delta;
          return { type: 'thinking_delta', contentIndex, delta, partial };
        }),
      );
    } else {
      const id = block.id ?? `call_${turnIndex + 1}_${contentIndex}`;
      const call: ToolCall = { type: 'toolCall', id, name: block.name, arguments: {} };
      steps.push(() => {
        partial.content.push(call);
        return { type: 'toolcall_start', contentIndex, partial };
      });
      for (const delta of chunks(JSON.stringify(block.arguments), chunkSize)) {
        steps.push(() => ({ type: 'toolcall_delta', contentIndex, delta, partial }));
      }
      steps.push(() => {
        call.arguments = block.arguments;
        return { type: 'toolcall_end', contentIndex, partial };
      });
    }
  });
  return steps;
}

function endAborted(stream: ReplayStream, partial: AssistantMessage): void {
  partial.stopReason = 'aborted';
  partial.errorMessage = 'Request was aborted';
  stream.push({ type: 'error', message: partial });
  stream.end(partial);
}

function chunks(value: string, size: number): string[] {
  if (value.length <= size) return [value];
  const pieces: string[] = [];
  for (let i = 0; i < value.length; i += size) pieces.push(value.slice(i, i + size));
  return pieces;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * The stream handed to the caller: events are produced eagerly and buffered; iteration rethrows a failure
 * (as a real provider SDK would), and `result()` rejects with it.
 */
class ReplayStream implements AssistantMessageStream {
  // Read from `head` (a turn of a hundred tool calls buffers hundreds of events; shift() would move them all each read).
  private readonly buffered: AssistantMessageEvent[] = [];
  private head = 0;
  private waiting: {
    resolve: (r: IteratorResult<AssistantMessageEvent>) => void;
    reject: (e: unknown) => void;
  } | null = null;
  private finished: { message: AssistantMessage } | { error: unknown } | null = null;
  private resultWaiters: { resolve: (m: AssistantMessage) => void; reject: (e: unknown) => void }[] = [];

  push(event: AssistantMessageEvent): void {
    if (this.finished) return;
    const waiting = this.waiting;
    if (waiting) {
      this.waiting = null;
      waiting.resolve({ value: event, done: false });
    } else {
      this.buffered.push(event);
    }
  }

  end(message: AssistantMessage): void {
    this.finish({ message });
  }

  fail(error: unknown): void {
    this.finish({ error });
  }

  private finish(outcome: { message: AssistantMessage } | { error: unknown }): void {
    if (this.finished) return;
    this.finished = outcome;
    const waiting = this.waiting;
    this.waiting = null;
    if (waiting) {
      if ('error' in outcome) waiting.reject(outcome.error);
      else waiting.resolve({ value: undefined, done: true });
    }
    for (const waiter of this.resultWaiters.splice(0)) {
      if ('error' in outcome) waiter.reject(outcome.error);
      else waiter.resolve(outcome.message);
    }
  }

  result(): Promise<AssistantMessage> {
    const finished = this.finished;
    if (finished) return 'error' in finished ? Promise.reject(finished.error) : Promise.resolve(finished.message);
    return new Promise((resolve, reject) => this.resultWaiters.push({ resolve, reject }));
  }

  [Symbol.asyncIterator](): AsyncIterator<AssistantMessageEvent> {
    return {
      next: () => {
        if (this.head < this.buffered.length) {
          const event = this.buffered[this.head];
          this.buffered[this.head++] = undefined as never;
          return Promise.resolve({ value: event, done: false });
        }
        const finished = this.finished;
        if (finished) {
          return 'error' in finished
            ? Promise.reject(finished.error)
            : Promise.resolve({ value: undefined, done: true });
        }
        return new Promise((resolve, reject) => (this.waiting = { resolve, reject }));
      },
    };
  }
}
