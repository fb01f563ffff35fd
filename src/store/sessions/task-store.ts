// The session store's subagent tasks: one record per task, keyed by the parent's tool call it answers (key layout in
// session-store.ts), written whole on every save (a running task's transcript grows; the latest write wins). Its
// large texts go into Blobs like a message's (entry-codec.ts). A task's usage counts in its session's totals: each
// save adds what it used since the stored version.
import type { TaskEntry, Usage } from '../../ai/types';
import { requestResult } from '../db';
import { taskKey, taskPrefix } from '../keys';
import { findTaskProblem } from '../task-schema';
import type { SessionRecord, SessionStore } from '../types';
import { decodeEntry, encodeEntry, lightMessageOf } from './entry-codec';
import { accountUsage } from './record';
import { readSession, type StoreContext } from './store-context';

export type TaskStore = Pick<SessionStore, 'saveTask' | 'loadTasks'>;

/** The task methods of the session store over `context`. */
export function createTaskStore({ db, notify }: StoreContext): TaskStore {
  return {
    async saveTask(sessionId, task) {
      await db.transact(['sessions', 'entries'], 'readwrite', 'the subagent task', async (s) => {
        const session = await readSession(s, sessionId); // a session deleted in another tab gets no orphaned task
        const key = taskKey(sessionId, task.toolCallId);
        const before = usageOf(lightMessageOf(await requestResult(s.entries.get(key))));
        s.entries.put(encodeEntry(task), key);
        s.sessions.put({ ...accountTaskUsage(session, before, task.usage), updatedAt: Date.now() }, sessionId);
      });
      notify({ type: 'updated', id: sessionId });
    },

    async loadTasks(sessionId) {
      const values = await db.transact(['sessions', 'entries'], 'readonly', 'the subagent tasks', async (s) => {
        await readSession(s, sessionId);
        return (await requestResult(s.entries.getAll(IDBKeyRange.bound(taskPrefix(sessionId), `${taskPrefix(sessionId)}\uffff`)))) as unknown[];
      });
      const tasks: TaskEntry[] = [];
      for (const value of values) {
        const task = await decodeEntry(value);
        const problem = findTaskProblem(task);
        if (problem) {
          throw new Error(
            `A stored subagent task of session ${sessionId} is damaged (${problem.path || 'task'}: ${problem.problem}). ` +
              'Export the session to keep what is readable, or delete it.',
          );
        }
        tasks.push(task as TaskEntry);
      }
      return sortTasks(tasks);
    },
  };
}

/** Tasks in the order they were called (the store keeps them by tool call id). */
export function sortTasks(tasks: TaskEntry[]): TaskEntry[] {
  return tasks.sort((a, b) => a.queuedAt - b.queuedAt);
}

/** The session record with a task's usage `after` counted instead of its stored `before` (none for a new task). */
export function accountTaskUsage(session: SessionRecord, before: Usage | undefined, after: Usage): SessionRecord {
  const counted = before ? accountUsage(session, negated(before)) : session;
  return accountUsage(counted, after);
}

function negated(usage: Usage): Usage {
  return {
    input: -usage.input,
    output: -usage.output,
    cacheRead: -usage.cacheRead,
    cacheWrite: -usage.cacheWrite,
    cost: { total: Number.isFinite(usage.cost.total) ? -usage.cost.total : 0 },
  };
}

function usageOf(stored: unknown): Usage | undefined {
  const usage = (stored as { usage?: Usage } | null | undefined)?.usage;
  return typeof usage === 'object' && usage !== null && typeof usage.input === 'number' && typeof usage.cost?.total === 'number' ? usage : undefined;
}
