// What a worker subagent needs of the workspace: a copy-on-write fork to work in, and the 3-way merge of its changes
// back into the live tree. The names are the subagents contract's (Workspace.canFork/fork, and planMerge,
// applyMergePlan, planApply in ./merge/); the engine takes them through WorkerForks so a test can hand in its own.
import type { TaskConflict, TaskPendingFile } from '../../ai/types';
import type { ForkChange, ForkOptions, WorkspaceChanges } from '../../runtime/types';
import type { Workspace } from '../../runtime/workspace/workspace';

/** A fork of the workspace: a Workspace of its own over the fork's runtime. */
export interface WorkspaceFork {
  readonly workspace: Workspace;
  changes(): Promise<ForkChange[]>;
  dispose(): Promise<void>;
}

/** What a worker's changes come to against the live tree: what to apply, and what conflicts. */
export type MergePlan = { changes: WorkspaceChanges; conflicts: TaskConflict[]; filesChanged: string[]; pending: TaskPendingFile[] };

export type ReadLive = (path: string) => Promise<Uint8Array | null>;

/** The 3-way merge (fork point, the worker's tree, the live tree). */
export type SubagentMerge = {
  planMerge(changes: ForkChange[], readLive: ReadLive): Promise<MergePlan>;
  applyMergePlan(workspace: Workspace, plan: MergePlan): Promise<void>;
  planApply(pending: TaskPendingFile[], readLive: ReadLive, resolution: 'worker' | 'live'): Promise<MergePlan>;
};

/** How a session's workers get their own tree; absent when the workspace cannot fork (WebContainer). */
export type WorkerForks = {
  fork(options?: ForkOptions): Promise<WorkspaceFork>;
  merge: SubagentMerge;
};

type Forkable = { canFork?: unknown; fork?: (options?: ForkOptions) => Promise<WorkspaceFork> };

/** `workspace`'s forks with `merge`, or null when it cannot fork (or no merge is given). */
export function workerForksOf(workspace: Workspace, merge: SubagentMerge | undefined): WorkerForks | null {
  const forkable = workspace as Workspace & Forkable;
  if (!merge || forkable.canFork !== true || typeof forkable.fork !== 'function') return null;
  return { fork: (options) => forkable.fork!(options), merge };
}

/** The live file at `path` (workdir-relative), or null when there is none. */
export function liveReader(workspace: Workspace): ReadLive {
  return async (path) => {
    const absolute = workspace.resolve(path);
    const stat = await workspace.stat(absolute);
    return stat?.type === 'file' ? workspace.readFile(absolute) : null;
  };
}
