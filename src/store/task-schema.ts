// The TypeBox schema of a subagent task (src/ai/types.ts TaskEntry), checked wherever one enters from outside this
// tab's memory: session files and IndexedDB. Its messages and compactions are checked by their own schemas.
import { Type } from '@sinclair/typebox';
import type { TaskEntry } from '../ai/types';
import { findCompactionProblem } from './compaction-schema';
import { findMessageProblem, firstProblem, UsageSchema, type SchemaProblem } from './message-schema';

const Time = Type.Number();
const Status = Type.Union(['queued', 'running', 'done', 'error', 'conflict', 'aborted'].map((s) => Type.Literal(s)));
const Outcome = Type.Union(['merged', 'applied', 'discarded', 'live'].map((s) => Type.Literal(s)));
const Hunk = Type.Object({ baseStart: Type.Integer({ minimum: 0 }), base: Type.String(), live: Type.String(), worker: Type.String() });
const Conflict = Type.Object({ path: Type.String(), hunks: Type.Array(Hunk) });
const Nullable = Type.Union([Type.String(), Type.Null()]);
const Pending = Type.Object({ path: Type.String(), base: Nullable, worker: Nullable, encoding: Type.Optional(Type.Literal('base64')) });

// Messages and compactions are only required to be arrays here; each is checked below with its own schema.
const TaskSchema = Type.Object({
  type: Type.Literal('task'),
  toolCallId: Type.String({ minLength: 1 }),
  agent: Type.String(),
  description: Type.String(),
  prompt: Type.String(),
  provider: Type.String(),
  model: Type.String(),
  status: Status,
  interrupted: Type.Optional(Type.Boolean()),
  queuedAt: Time,
  startedAt: Type.Optional(Time),
  endedAt: Type.Optional(Time),
  messages: Type.Array(Type.Unknown()),
  compactions: Type.Optional(Type.Array(Type.Unknown())),
  toolCalls: Type.Integer({ minimum: 0 }),
  usage: UsageSchema,
  filesChanged: Type.Optional(Type.Array(Type.String())),
  conflicts: Type.Optional(Type.Array(Conflict)),
  pending: Type.Optional(Type.Array(Pending)),
  outcome: Type.Optional(Outcome),
  result: Type.Optional(Type.String()),
  error: Type.Optional(Type.String()),
});

/** The first problem of `value` as a TaskEntry ("messages/2/content/0/type": "..."), or null when it is one. */
export function findTaskProblem(value: unknown): SchemaProblem | null {
  const problem = firstProblem(TaskSchema, value);
  if (problem) return problem;
  const task = value as TaskEntry;
  for (const [index, message] of task.messages.entries()) {
    const found = findMessageProblem(message);
    if (found) return { path: join(`messages/${index}`, found.path), problem: found.problem };
  }
  for (const [index, compaction] of (task.compactions ?? []).entries()) {
    const found = findCompactionProblem(compaction, task.messages.length);
    if (found) return { path: join(`compactions/${index}`, found.path), problem: found.problem };
  }
  return null;
}

function join(base: string, path: string): string {
  return path ? `${base}/${path}` : base;
}
