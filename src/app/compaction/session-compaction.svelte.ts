// One session's long-session bookkeeping: its compactions (the model's view is rebuilt from them, never the person's
// transcript), the token count behind the context meter, the compaction in progress (automatic inside a run, or asked
// for with /compact or "Compact now"), and why the last one failed. The controller owns one and calls it at the few
// points a run needs it; compactions made inside a run are held until the transcript has every message they name.
import {
  compactContext,
  ContextGuard,
  ContextTokenCounter,
  buildModelContext,
  keepRecentTokensFor,
  type CompactionOutcome,
  type CompactionReason,
  type CompactionSettings,
  type ModelContext,
} from '../../agent/compaction';
import { addUsage } from '../../ai/cost';
import type { CompactionEntry, Message, Model, StreamFn, StreamOptions, Tool, Usage } from '../../ai/types';
import { emptyUsage } from '../../ai/types';
import { errorText } from '../../ai/messages';
import { fileEffectOf } from './file-effects';
import { latestTodoList } from '../../agent/todo-list';

/** What is compacting: the run before a model call ('threshold', 'overflow'), or the person ('manual'). */
export type CompactionActivity = { reason: CompactionReason | 'manual' };

/** Everything a compaction's summary calls need, as a run has it. */
export type CompactionCall = {
  model: Model;
  streamFn: StreamFn;
  streamOptions?: Omit<StreamOptions, 'signal'>;
  settings: CompactionSettings;
  systemPrompt: string;
  tools: readonly Tool[];
};

export class SessionCompaction {
  /** The session's compactions in the order made (those whose messages the transcript already has). */
  compactions = $state.raw<CompactionEntry[]>([]);
  /** The compaction in progress; Esc or Stop cancels it. */
  active = $state.raw<CompactionActivity | null>(null);
  /** What the last compaction that did not happen came to (failed, cancelled, nothing to do); the session is unchanged. */
  notice = $state<string | null>(null);
  /** What summary calls that failed cost: paid for, though nothing was stored. */
  private lostUsage = $state.raw<Usage>(emptyUsage());
  /** One per session, so every message is estimated once, by the meter and by every run's guard. */
  private readonly counter = new ContextTokenCounter();
  /** The last run's system prompt and tools, for the meter (before the first run: none known). */
  private prompt = $state.raw<{ systemPrompt: string; tools: readonly Tool[] }>({ systemPrompt: '', tools: [] });
  /** Made inside a run, waiting for the transcript to hold the messages before them. */
  private waiting: CompactionEntry[] = [];
  private readonly transcriptLength: () => number;
  private readonly onMade: (compaction: CompactionEntry) => void;

  /**
   * `transcriptLength` tells how many messages the session's transcript has now; `onMade` hears each compaction once
   * the transcript has every message before it.
   */
  constructor(compactions: CompactionEntry[], transcriptLength: () => number, onMade: (compaction: CompactionEntry) => void) {
    this.compactions = [...compactions];
    this.transcriptLength = transcriptLength;
    this.onMade = onMade;
  }

  /** The model's view of `messages` (the session's transcript) as of `upToSeq` messages (default: all). */
  view(messages: readonly Message[], upToSeq?: number): ModelContext {
    return buildModelContext(messages, this.compactions, upToSeq);
  }

  /** Tokens the next request would take: the meter's "used" figure. */
  contextTokens(messages: readonly Message[]): number {
    const view = this.view(messages);
    return this.counter.contextTokens({ ...this.prompt, messages: view.messages, usageFrom: view.usageFrom });
  }

  /** Usage of every summary call (stored compactions, and failed ones of this page's life). */
  get usage(): Usage {
    return this.compactions.reduce((total, c) => (c.usage ? addUsage(total, c.usage) : total), this.lostUsage);
  }

  /**
   * The loop's beforeModelCall keeper for a run starting from `context` (built with `view` before the run's prompts
   * joined the transcript).
   */
  guard(context: ModelContext, call: CompactionCall & { maxOutputTokens?: number }): ContextGuard {
    this.prompt = { systemPrompt: call.systemPrompt, tools: call.tools };
    return new ContextGuard({
      context,
      model: call.model,
      streamFn: call.streamFn,
      streamOptions: call.streamOptions,
      settings: call.settings,
      maxOutputTokens: call.maxOutputTokens,
      fileEffectOf,
      todoListOf: latestTodoList,
      counter: this.counter,
      onCompactionStart: (reason) => this.started({ reason }),
      onCompactionEnd: (outcome) => this.ended(outcome),
    });
  }

  /**
   * Compacts `messages` now (the person asked): `focus` goes into the summary request; `harder` keeps half the usual
   * recent part. Shows as compacting at once, while `prepare` (the run's system prompt) is still being made. Never
   * throws; on success the entry is made like a run's.
   */
  async compact(
    messages: readonly Message[],
    prepare: Promise<CompactionCall>,
    options: { focus?: string; harder?: boolean; signal?: AbortSignal } = {},
  ): Promise<CompactionOutcome> {
    this.started({ reason: 'manual' });
    let outcome: CompactionOutcome;
    try {
      const call = await prepare;
      this.prompt = { systemPrompt: call.systemPrompt, tools: call.tools };
      const keepRecentTokens = options.harder ? Math.floor(keepRecentTokensFor(call.model.contextWindow, call.settings) / 2) : undefined;
      outcome = await compactContext({
        context: this.view(messages),
        systemPrompt: call.systemPrompt,
        tools: call.tools,
        model: call.model,
        streamFn: call.streamFn,
        streamOptions: call.streamOptions,
        settings: call.settings,
        keepRecentTokens,
        focus: options.focus,
        force: true,
        fileEffectOf,
        todoListOf: latestTodoList,
        counter: this.counter,
        signal: options.signal,
      });
    } catch (error) {
      outcome = { ok: false, reason: 'failed', message: `The context could not be compacted: ${errorText(error)}`, usage: emptyUsage() };
    }
    this.ended(outcome);
    return outcome;
  }

  /** The transcript grew: compactions waiting for its messages are taken in and told. */
  caughtUp(): void {
    if (this.waiting.length === 0) return;
    const length = this.transcriptLength();
    const ready = this.waiting.filter((c) => c.atSeq <= length);
    if (ready.length === 0) return;
    this.waiting = this.waiting.filter((c) => c.atSeq > length);
    this.compactions = [...this.compactions, ...ready];
    for (const compaction of ready) this.onMade(compaction);
  }

  /** The system prompt and tools the next request will carry, so the meter counts them before the first run. */
  rememberPrompt(systemPrompt: string, tools: readonly Tool[]): void {
    this.prompt = { systemPrompt, tools };
  }

  dismissNotice(): void {
    this.notice = null;
  }

  private started(activity: CompactionActivity): void {
    this.active = activity;
    this.notice = null;
  }

  private ended(outcome: CompactionOutcome): void {
    this.active = null;
    if (outcome.ok) {
      this.waiting.push(outcome.entry);
      this.caughtUp();
      return;
    }
    this.lostUsage = addUsage(this.lostUsage, outcome.usage);
    this.notice = outcome.message;
  }
}
