// The session's real worker forks (the embedded runtime's copy-on-write fork and the 3-way merge), counted, for
// tests that check how many forks the engine took.
import type { ForkOptions } from '../../../runtime/types';
import type { Workspace } from '../../../runtime/workspace/workspace';
import { subagentMerge } from '../merge-source';
import type { WorkerForks } from '../worker-fork';

export function countedForks(live: Workspace): WorkerForks & { made: number } {
  const forks = {
    made: 0,
    fork(options?: ForkOptions) {
      forks.made++;
      return live.fork(options);
    },
    merge: subagentMerge,
  };
  return forks;
}
