// One compaction of a model view: choose the cut, summarise what comes before it (updating the previous summary, and
// the start of a cut turn on its own), list the files the summarised tool calls touched, and build the view the
// model sees next. Nothing is changed unless all of it succeeds; the caller stores the entry.
import type { CompactionEntry, Message, Model, StreamFn, StreamOptions, TodoItem, Tool, Usage } from '../../ai/types';
import { addUsage } from '../../ai/cost';
import { emptyUsage } from '../../ai/types';
import { ContextTokenCounter } from './context-tokens';
import { findCutPoint } from './cut-point';
import { collectFileLists, type FileEffectOf } from './file-lists';
import { summaryMessage, type ModelContext } from './model-context';
import { compactionThreshold, keepRecentTokensFor, reserveTokensFor, type CompactionSettings } from './settings';
import { summarize, type SummaryResult } from './summarize';

export type CompactionRequest = {
  /** The view to compact (buildModelContext, or a ContextGuard's current view). */
  context: ModelContext;
  systemPrompt: string;
  tools: readonly Tool[];
  /** The session's model: the summary is asked of it, through the same StreamFn. */
  model: Model;
  streamFn: StreamFn;
  streamOptions?: Omit<StreamOptions, 'signal'>;
  settings?: CompactionSettings;
  /** Keep this many recent tokens instead of the settings' figure ("compact harder" keeps less). */
  keepRecentTokens?: number;
  /** The person's emphasis (`/compact <focus>`), added to the summary request. */
  focus?: string;
  /** Asked for (by the person, or after an overflow): summarise something even when everything fits what is kept. */
  force?: boolean;
  /** What each tool call did to files, for the files-read and files-modified lists (from the app's tool catalog). */
  fileEffectOf?: FileEffectOf;
  /** The agent's todo list as the given messages leave it (undefined: they never set one), re-stated with the summary. */
  todoListOf?: TodoListOf;
  signal?: AbortSignal;
  counter?: ContextTokenCounter;
  now?: () => number;
};

/** The todo list `messages` leave (the last valid todo call's), or undefined when none of them sets one. */
export type TodoListOf = (messages: readonly Message[]) => TodoItem[] | undefined;

export type CompactionOutcome =
  | { ok: true; entry: CompactionEntry; context: ModelContext; usage: Usage }
  /** `nothing`: everything already fits what is kept. The session is unchanged; `usage` is what failed calls cost. */
  | { ok: false; reason: 'nothing' | 'aborted' | 'failed'; message: string; usage: Usage };

/** Room for the summary message's wrapping and file lists, beyond the summary itself. */
const SUMMARY_WRAPPING_TOKENS = 256;
const TURN_HEADING = '# The turn in progress (its beginning, summarised)';

/** Compacts `request.context`; never throws, and changes nothing when it fails or is cancelled. */
export async function compactContext(request: CompactionRequest): Promise<CompactionOutcome> {
  const { context, model, settings } = request;
  const counter = request.counter ?? new ContextTokenCounter();
  const count = (messages: readonly Message[], usageFrom: number) =>
    counter.contextTokens({ systemPrompt: request.systemPrompt, tools: request.tools, messages, usageFrom });
  const tokensBefore = count(context.messages, context.usageFrom);

  const summaryTokens = summaryOutputTokens(model, settings);
  const room = compactionThreshold(model.contextWindow, settings) - counter.promptTokens(request.systemPrompt, request.tools);
  const from = context.compaction ? 1 : 0;
  const cut = findCutPoint(context.messages, {
    from,
    keepRecentTokens: request.keepRecentTokens ?? keepRecentTokensFor(model.contextWindow, settings),
    maxKeptTokens: Math.max(0, room - summaryTokens - SUMMARY_WRAPPING_TOKENS),
    force: request.force,
    tokensOf: (message) => counter.messageTokens(message),
  });
  if (!cut) {
    return {
      ok: false,
      reason: 'nothing',
      message: `Nothing to compact: the conversation (${tokensBefore} tokens) already fits in the recent part that is kept verbatim.`,
      usage: emptyUsage(),
    };
  }

  const history = context.messages.slice(from, cut.turnStart ?? cut.firstKept);
  const turnPrefix = cut.turnStart === undefined ? [] : context.messages.slice(cut.turnStart, cut.firstKept);
  const caller = { model, streamFn: request.streamFn, streamOptions: request.streamOptions, maxOutputTokens: summaryTokens, signal: request.signal };
  let usage = emptyUsage();
  const previous = context.compaction?.summary;

  let summary = previous ?? '';
  if (history.length > 0) {
    const result = await summarize(history, { kind: 'history', previous, focus: request.focus }, caller);
    usage = addUsage(usage, result.usage);
    if (!result.ok) return failed(result, usage);
    summary = result.text;
  }
  if (turnPrefix.length > 0) {
    const result = await summarize(turnPrefix, { kind: 'turn-prefix', focus: request.focus }, caller);
    usage = addUsage(usage, result.usage);
    if (!result.ok) return failed(result, usage);
    summary = summary ? `${summary}\n\n${TURN_HEADING}\n\n${result.text}` : result.text;
  }

  const files = collectFileLists([...history, ...turnPrefix], request.fileEffectOf, context.compaction);
  const entry: CompactionEntry = {
    type: 'compaction',
    summary,
    firstKeptSeq: cut.firstKept < context.messages.length ? context.seqs[cut.firstKept] : context.nextSeq,
    atSeq: context.nextSeq,
    tokensBefore,
    tokensAfter: 0,
    readFiles: files.readFiles,
    modifiedFiles: files.modifiedFiles,
    timestamp: (request.now ?? Date.now)(),
    usage,
  };
  if (request.focus) entry.focus = request.focus;
  // The list as it stands now, so the model still has it when the call that set it is summarised away.
  const todos = request.todoListOf?.(context.messages.slice(from)) ?? context.compaction?.todos;
  if (todos && todos.length > 0) entry.todos = todos;
  const messages = [summaryMessage(entry), ...context.messages.slice(cut.firstKept)];
  // No reply has answered the compacted context yet: every kept reply's usage measured the longer one.
  const compacted: ModelContext = {
    messages,
    seqs: [-1, ...context.seqs.slice(cut.firstKept)],
    compaction: entry,
    nextSeq: context.nextSeq,
    usageFrom: messages.length,
  };
  entry.tokensAfter = count(messages, compacted.usageFrom);
  return { ok: true, entry, context: compacted, usage };
}

/** The most a summary may be: 80% of the reserve, within the model's output limit. */
export function summaryOutputTokens(model: Pick<Model, 'contextWindow' | 'maxTokens'>, settings?: CompactionSettings): number {
  return Math.min(model.maxTokens, Math.max(1_024, Math.floor(reserveTokensFor(model.contextWindow, settings) * 0.8)));
}

function failed(result: Extract<SummaryResult, { ok: false }>, usage: Usage): CompactionOutcome {
  const message =
    result.reason === 'aborted' ? 'The compaction was cancelled; nothing changed.' : `${result.message} The session is unchanged.`;
  return { ok: false, reason: result.reason, message, usage };
}
