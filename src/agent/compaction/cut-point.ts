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
  const { from, keepRecentTokens, maxKeptTokens } = options;
  const end = messages.length;
  if (from >= end) return null;
  // keptFrom[i]: the tokens kept when the cut falls before message i.
  const keptFrom = new Array<number>(end + 1).fill(0);
  for (let i = end - 1; i >= from; i--) keptFrom[i] = keptFrom[i + 1] + options.tokensOf(messages[i]);
  const startsKept = (i: number) => messages[i].role !== 'toolResult';
  const isUser = (i: number) => messages[i].role === 'user';

  // The newest message at which the kept part reaches keepRecentTokens.
  const reached = lastIndex(from + 1, end, (i) => keptFrom[i] >= keepRecentTokens);
  let cut: number;
  if (reached === undefined) {
    // Everything fits in what is kept: only a compaction that was asked for goes on, keeping the last turn.
    if (!options.force) return null;
    cut = lastIndex(from + 1, end, isUser) ?? end;
  } else {
    cut = firstIndex(reached, end, startsKept) ?? end;
    // Splitting a turn costs a second summary and loses its thread: the next turn's start is the better cut when it
    // still keeps half as much.
    const nextTurn = cut < end && !isUser(cut) ? firstIndex(cut + 1, end, isUser) : undefined;
    if (nextTurn !== undefined && keptFrom[nextTurn] >= keepRecentTokens / 2) cut = nextTurn;
    if (cut === end) {
      // Only tool results from `reached` on: keep the call that produced them, if that still leaves room.
      const call = lastIndex(from + 1, reached, startsKept);
      if (call !== undefined && keptFrom[call] <= maxKeptTokens) cut = call;
    }
  }
  while (cut < end && keptFrom[cut] > maxKeptTokens) cut = firstIndex(cut + 1, end, startsKept) ?? end;
  if (cut <= from) return null;

  if (cut === end || isUser(cut)) return { firstKept: cut };
  const turnStart = lastIndex(from, cut, isUser);
  return turnStart === undefined ? { firstKept: cut } : { firstKept: cut, turnStart };
}

function firstIndex(from: number, to: number, test: (i: number) => boolean): number | undefined {
  for (let i = from; i < to; i++) if (test(i)) return i;
  return undefined;
}

function lastIndex(from: number, to: number, test: (i: number) => boolean): number | undefined {
  for (let i = to - 1; i >= from; i--) if (test(i)) return i;
  return undefined;
}
