// The TypeBox schema of a compaction entry (src/ai/types.ts CompactionEntry), checked wherever one enters from
// outside this tab's memory: session files and IndexedDB.
import { Type } from '@sinclair/typebox';
import type { CompactionEntry } from '../ai/types';
import { firstProblem, UsageSchema, type SchemaProblem } from './message-schema';

const Seq = Type.Integer({ minimum: 0 });

const CompactionSchema = Type.Object({
  type: Type.Literal('compaction'),
  summary: Type.String(),
  firstKeptSeq: Seq,
  atSeq: Seq,
  tokensBefore: Type.Number(),
  tokensAfter: Type.Number(),
  readFiles: Type.Array(Type.String()),
  modifiedFiles: Type.Array(Type.String()),
  timestamp: Type.Number(),
  usage: Type.Optional(UsageSchema),
  focus: Type.Optional(Type.String()),
  todos: Type.Optional(
    Type.Array(
      Type.Object({
        content: Type.String(),
        status: Type.Union([Type.Literal('pending'), Type.Literal('in_progress'), Type.Literal('completed')]),
      }),
    ),
  ),
});

/**
 * The first problem of `value` as a compaction of a transcript of `messageCount` messages, or null. Beyond the shape:
 * it keeps messages the transcript has, and was made no later than the transcript's end.
 */
export function findCompactionProblem(value: unknown, messageCount: number): SchemaProblem | null {
  const problem = firstProblem(CompactionSchema, value);
  if (problem) return problem;
  const entry = value as CompactionEntry;
  if (entry.atSeq > messageCount) {
    return { path: 'atSeq', problem: `must be at most ${messageCount} (the messages before it), got ${entry.atSeq}` };
  }
  if (entry.firstKeptSeq > entry.atSeq) {
    return { path: 'firstKeptSeq', problem: `must be at most atSeq (${entry.atSeq}), got ${entry.firstKeptSeq}` };
  }
  return null;
}
