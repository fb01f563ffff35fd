// The loop's beforeModelCall for one run: before every model call (also between tool batches) it counts the context,
// compacts when it crossed the line (or when the provider just said it overflowed) and clamps the output so the
// request fits the window. It follows the run's transcript so every message keeps its session seq: the first new
// message is the session's `nextSeq`, the next one after it, and so on, in the order the loop delivers them.
import type { CompactionEntry, Message, Model, StreamFn, StreamOptions } from '../../ai/types';
import type { ModelCallInfo, ModelCallPlan } from '../types';
import { compactContext, type CompactionOutcome, type TodoListOf } from './compact';
import { ContextTokenCounter } from './context-tokens';
import type { FileEffectOf } from './file-lists';
import type { ModelContext } from './model-context';
import { clampMaxOutput, shouldCompact, type CompactionSettings } from './settings';

export type CompactionReason = 'threshold' | 'overflow';

export type ContextGuardOptions = {
  /** The view the run starts from: what the app passed as the loop's context.messages. */
  context: ModelContext;
  model: Model;
  streamFn: StreamFn;
  streamOptions?: Omit<StreamOptions, 'signal'>;
  settings: CompactionSettings;
  /** The output limit the person set, else the model's maximum applies; each call's limit is clamped to fit. */
  maxOutputTokens?: number;
  fileEffectOf?: FileEffectOf;
  todoListOf?: TodoListOf;
  /** Share one per session so message estimates are made once. */
  counter?: ContextTokenCounter;
  /** A compaction starts (show "Compacting…"; a second one never starts before this one ended). */
  onCompactionStart?(reason: CompactionReason): void;
  /** It ended: on success the app stores `outcome.entry` and counts `outcome.usage`; on failure it says why. */
  onCompactionEnd?(outcome: CompactionOutcome, reason: CompactionReason): void;
};

/** One run's context keeper; pass `(call, signal) => guard.beforeModelCall(call, signal)` as the loop's hook. */
export class ContextGuard {
  private readonly options: ContextGuardOptions;
  private readonly counter: ContextTokenCounter;
  private view: ModelContext;
  private readonly seqOf = new Map<Message, number>();
  private nextSeq: number;
  private tracked: { messages: Message[]; length: number } | null = null;
  private gaveUp = false;

  constructor(options: ContextGuardOptions) {
    this.options = options;
    this.counter = options.counter ?? new ContextTokenCounter();
    this.view = options.context;
    this.nextSeq = options.context.nextSeq;
    this.adopt(options.context);
  }

  /** The compaction the model's view currently starts from (the latest one made in this run, if any). */
  get compaction(): CompactionEntry | undefined {
    return this.view.compaction;
  }

  /** Counts, compacts when needed, and says how to make the call. */
  async beforeModelCall(call: ModelCallInfo, signal?: AbortSignal): Promise<ModelCallPlan> {
    this.track(call.messages);
    const { model, settings } = this.options;
    const { systemPrompt, tools, messages } = call;
    const tokens = this.counter.contextTokens({ systemPrompt, tools, messages, usageFrom: this.view.usageFrom });
    const reason: CompactionReason | undefined =
      call.overflow !== undefined ? 'overflow' : shouldCompact(tokens, model.contextWindow, settings) && !this.gaveUp ? 'threshold' : undefined;
    if (reason && settings.auto) {
      const outcome = await this.compact(call, reason, signal);
      if (outcome.ok) return { messages: outcome.context.messages, maxTokens: this.maxTokens(outcome.entry.tokensAfter) };
      // Trying again before every call would repeat a failing summary request; an overflow still gets its chance.
      if (reason === 'threshold') this.gaveUp = true;
      if (reason === 'overflow') return {};
    }
    return { maxTokens: this.maxTokens(tokens) };
  }

  private async compact(call: ModelCallInfo, reason: CompactionReason, signal?: AbortSignal): Promise<CompactionOutcome> {
    const { options } = this;
    options.onCompactionStart?.(reason);
    const outcome = await compactContext({
      context: this.currentView(call.messages),
      systemPrompt: call.systemPrompt,
      tools: call.tools,
      model: options.model,
      streamFn: options.streamFn,
      streamOptions: options.streamOptions,
      settings: options.settings,
      force: reason === 'overflow',
      fileEffectOf: options.fileEffectOf,
      todoListOf: options.todoListOf,
      counter: this.counter,
      signal,
    });
    if (outcome.ok) this.adopt(outcome.context);
    options.onCompactionEnd?.(outcome, reason);
    return outcome;
  }

  private maxTokens(inputTokens: number): number {
    return clampMaxOutput(this.options.model, inputTokens, this.options.maxOutputTokens);
  }

  /** Gives every message the loop added since the last call the next session seq. */
  private track(messages: Message[]): void {
    const continues = this.tracked !== null && this.tracked.messages === messages && messages.length >= this.tracked.length;
    for (let i = continues ? this.tracked!.length : 0; i < messages.length; i++) {
      const message = messages[i];
      if (!this.seqOf.has(message) && message !== this.view.messages[0]) this.seqOf.set(message, this.nextSeq++);
    }
    this.tracked = { messages, length: messages.length };
  }

  private currentView(messages: Message[]): ModelContext {
    const summary = this.view.compaction ? this.view.messages[0] : undefined;
    return {
      messages,
      seqs: messages.map((message) => (message === summary ? -1 : (this.seqOf.get(message) ?? -1))),
      compaction: this.view.compaction,
      nextSeq: this.nextSeq,
      usageFrom: this.view.usageFrom,
    };
  }

  private adopt(view: ModelContext): void {
    this.view = view;
    view.messages.forEach((message, i) => {
      if (view.seqs[i] >= 0) this.seqOf.set(message, view.seqs[i]);
    });
    // The loop continues from a copy of these messages; its first call after this starts tracking afresh.
    this.tracked = null;
  }
}
