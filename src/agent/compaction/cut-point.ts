// Where a compaction cuts: everything before the cut is summarised, everything from it on is kept verbatim. A cut
// only falls before a user or assistant message, so a tool call is never separated from its result and no result is
// left without its call (results always follow their assistant message directly).
import type { Message } from '../../ai/types';

export type CutPoint = {
  /** Index of the first message kept verbatim; `messages.length` when nothing is kept. */
  firstKept: number;
  /**
   * When the cut falls inside a turn (before an assistant message): the index of the user message that started the
   * turn. The turn's part before the cut is summarised on its own, so the kept part keeps its request and context.
   */
  turnStart?: number;
};

export type CutOptions = {
  /** Index of the first message that may be summarised (the summary message of an earlier compaction comes before). */
  from: number;
  /** Walk back from the newest message until about this many tokens are kept. */
  keepRecentTokens: number;
  /** Never keep more than this (the kept part must leave room for the summary and the reply). */
  maxKeptTokens: number;
  /** Summarise at least one message even when everything fits in `keepRecentTokens` (a compaction asked for). */
  force?: boolean;
  tokensOf(message: Message): number;
};

/** Where to cut `messages`, or null when nothing before the kept part is left to summarise. */
export function findCutPoint(messages: readonly Message[], options: CutOptions): CutPoint | null {
  const { from } = options;
  const end = messages.length;
  if (from >= end) return null;

  const keptFrom = new Array<number>(end + 1).fill(0);
  for (let i = end - 1; i >= from; i--) keptFrom[i] = keptFrom[i + 1] + options.tokensOf(messages[i]);

  let reached = from;
  for (let i = end - 1; i >= from; i--) {
    if (keptFrom[i] >= options.keepRecentTokens) {
      reached = i;
      break;
    }
  }

  const canCut = (i: number) => i < end && messages[i].role !== 'toolResult';
  let cut = end;
  if (reached === from) {
    // Everything fits in what is kept: only a compaction that was asked for goes on, keeping the last turn.
    if (!options.force) return null;
    for (let i = end - 1; i > from; i--) {
      if (messages[i].role === 'user') {
        cut = i;
        break;
      }
    }
  } else {
    for (let i = reached; i < end; i++) {
      if (canCut(i)) {
        cut = i;
        break;
      }
    }
    // Splitting a turn costs a second summary and loses its thread: a later turn start that still keeps half as much
    // is the better cut.
    if (cut < end && messages[cut].role !== 'user') {
      for (let i = cut + 1; i < end && keptFrom[i] >= options.keepRecentTokens / 2; i++) {
        if (messages[i].role === 'user') {
          cut = i;
          break;
        }
      }
    }
    if (cut === end) {
      // Only tool results from `reached` on: keep the call that produced them, if that still leaves room.
      for (let i = reached - 1; i > from; i--) {
        if (canCut(i)) {
          if (keptFrom[i] <= options.maxKeptTokens) cut = i;
          break;
        }
      }
    }
  }
  while (cut < end && keptFrom[cut] > options.maxKeptTokens) {
    let next = cut + 1;
    while (next < end && !canCut(next)) next++;
    cut = next;
  }
  if (cut <= from) return null;

  if (cut === end || messages[cut].role === 'user') return { firstKept: cut };
  for (let i = cut - 1; i >= from; i--) {
    if (messages[i].role === 'user') return { firstKept: cut, turnStart: i };
  }
  return { firstKept: cut };
}
