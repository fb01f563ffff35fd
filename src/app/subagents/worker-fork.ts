// What a worker subagent needs of the workspace: a copy-on-write fork to work in, and the 3-way merge of its changes
// back into the live tree (Workspace.canFork/fork, and ./merge/); the engine takes them through WorkerForks so a test
// can hand in its own.
import type { TaskPendingFile } from '../../ai/types';
import type { ForkChange, ForkOptions } from '../../runtime/types';
import type { Workspace, WorkspaceFork } from '../../runtime/workspace/workspace';
import type { MergePlan } from './merge/merge-plan';

export type { MergePlan, WorkspaceFork };

/**
 * The 3-way merge (fork point, the worker's tree, the live tree), planned and applied in one exclusive turn of the
 * live workspace so two workers ending together cannot overwrite each other's merge. Nothing is applied when the
 * plan conflicts; `applyPending` never conflicts (conflicting hunks take `resolution`'s side).
 */
export type SubagentMerge = {
  mergeInto(workspace: Workspace, changes: ForkChange[]): Promise<MergePlan>;
  applyPending(workspace: Workspace, pending: TaskPendingFile[], resolution: 'worker' | 'live'): Promise<MergePlan>;
};

/** How a session's workers get their own tree; absent when the workspace cannot fork (WebContainer). */
export type WorkerForks = {
  fork(options?: ForkOptions): Promise<WorkspaceFork>;
  merge: SubagentMerge;
};

/** `workspace`'s forks with `merge`, or null when it cannot fork (or no merge is given). */
export function workerForksOf(workspace: Workspace, merge: SubagentMerge | undefined): WorkerForks | null {
  if (!merge || !workspace.canFork) return null;
  return { fork: (options) => workspace.fork(options), merge };
}
