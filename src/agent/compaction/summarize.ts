// The summary call: the same provider and model as the session, its own system prompt, no tools, the transcript as
// plain text. When the text does not fit one call, old bulky tool results are pruned first; what still does not fit
// is summarised in chunks, oldest first, each call updating the summary so far.
import type { AssistantMessage, Message, Model, StreamFn, StreamOptions, Usage } from '../../ai/types';
import { addUsage } from '../../ai/cost';
import { emptyUsage } from '../../ai/types';
import { errorText } from '../../ai/messages';
import { ABORTED, AbortRace } from '../abort';
import { CHARS_PER_TOKEN, estimateTextTokens } from './estimate';
import { serializeForSummary } from './prune';
import { cutText } from './serialize';
import { historyInstructions, SUMMARY_SYSTEM_PROMPT, summaryRequestText, turnPrefixInstructions } from './summary-prompts';

/** How the summary calls are made. */
export type SummaryCaller = {
  model: Model;
  streamFn: StreamFn;
  /** The session's options (API key, headers); thinking is turned off and the output limit set per call. */
  streamOptions?: Omit<StreamOptions, 'signal'>;
  /** The most a summary may be. */
  maxOutputTokens: number;
  signal?: AbortSignal;
};

export type SummaryResult =
  | { ok: true; text: string; usage: Usage }
  | { ok: false; reason: 'aborted' | 'failed'; message: string; usage: Usage };

export type SummaryKind = { kind: 'history'; previous?: string; focus?: string } | { kind: 'turn-prefix'; focus?: string };

/** Tokens kept free in every summary call for wrapping and for estimates that run low. */
const SAFETY_TOKENS = 512;

/** Summarises `messages` (see the file comment); never throws. */
export async function summarize(messages: readonly Message[], what: SummaryKind, caller: SummaryCaller): Promise<SummaryResult> {
  let usage = emptyUsage();
  const budgetChars = chunkBudgetTokens(caller, what) * CHARS_PER_TOKEN;
  const chunks = chunksOf(serializeForSummary(messages, budgetChars), budgetChars);
  let previous = what.kind === 'history' ? what.previous : undefined;
  for (const chunk of chunks) {
    const instructions =
      what.kind === 'history' ? historyInstructions(previous, what.focus) : turnPrefixInstructions(what.focus);
    const reply = await callModel(summaryRequestText(chunk, instructions), caller);
    if (reply.message) usage = addUsage(usage, reply.message.usage);
    if (!reply.ok) return { ok: false, reason: reply.reason, message: reply.error, usage };
    // A turn prefix too long for one call keeps its chunks' summaries side by side; history updates one summary.
    previous = what.kind === 'history' || previous === undefined ? reply.text : `${previous}\n\n${reply.text}`;
  }
  return { ok: true, text: previous ?? '', usage };
}

/** How many tokens of transcript one call may carry: the window less the reply, the instructions and a margin. */
function chunkBudgetTokens(caller: SummaryCaller, what: SummaryKind): number {
  const instructions = what.kind === 'history' ? historyInstructions('', what.focus) : turnPrefixInstructions(what.focus);
  // An update call also carries the summary so far, which is at most one reply long.
  const previous = what.kind === 'history' ? caller.maxOutputTokens : 0;
  const fixed = estimateTextTokens(SUMMARY_SYSTEM_PROMPT + instructions) + previous + caller.maxOutputTokens + SAFETY_TOKENS;
  return Math.max(1_000, caller.model.contextWindow - fixed);
}

/** Serialised messages joined into pieces of at most `budgetChars`, split between messages where possible. */
export function chunksOf(texts: readonly string[], budgetChars: number): string[] {
  const chunks: string[] = [];
  let current: string[] = [];
  let size = 0;
  for (const whole of texts) {
    const text = cutText(whole, budgetChars);
    if (current.length > 0 && size + 2 + text.length > budgetChars) {
      chunks.push(current.join('\n\n'));
      current = [];
      size = 0;
    }
    size += (current.length > 0 ? 2 : 0) + text.length;
    current.push(text);
  }
  if (current.length > 0) chunks.push(current.join('\n\n'));
  return chunks;
}

type CallOutcome =
  | { ok: true; text: string; message: AssistantMessage }
  | { ok: false; reason: 'aborted' | 'failed'; error: string; message?: AssistantMessage };

async function callModel(text: string, caller: SummaryCaller): Promise<CallOutcome> {
  const cancelled: CallOutcome = { ok: false, reason: 'aborted', error: 'The compaction was cancelled.' };
  const { signal } = caller;
  if (signal?.aborted) return cancelled;
  // A provider that ignores the signal must not hold a cancelled compaction open.
  const aborts = new AbortRace(signal);
  let message: AssistantMessage | typeof ABORTED;
  try {
    const stream = await caller.streamFn(
      caller.model,
      { systemPrompt: SUMMARY_SYSTEM_PROMPT, messages: [{ role: 'user', content: text, timestamp: Date.now() }], tools: [] },
      // A summary reads the transcript only: no web searches, which would cost and be of no use.
      { ...caller.streamOptions, signal, maxTokens: caller.maxOutputTokens, thinking: 'off', webTools: false },
    );
    message = await aborts.race(stream.result());
  } catch (error) {
    return signal?.aborted ? cancelled : { ok: false, reason: 'failed', error: `The summary request failed: ${errorText(error)}` };
  } finally {
    aborts.dispose();
  }
  if (message === ABORTED) return cancelled;
  if (message.stopReason === 'aborted') return { ...cancelled, message };
  if (message.stopReason === 'error') {
    return { ok: false, reason: 'failed', error: `The summary request failed: ${message.errorMessage ?? 'no reason given'}`, message };
  }
  const summary = message.content
    .map((block) => (block.type === 'text' ? block.text : ''))
    .join('')
    .trim();
  if (!summary) return { ok: false, reason: 'failed', error: 'The model returned an empty summary.', message };
  return { ok: true, text: summary, message };
}
