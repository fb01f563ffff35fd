// The 3-way merge a session's workers use (./merge/): planned and applied in one exclusive turn of the workspace.
import { applyPendingToWorkspace, mergeIntoWorkspace } from './merge/merge-plan';
import type { SubagentMerge } from './worker-fork';

export const subagentMerge: SubagentMerge = { mergeInto: mergeIntoWorkspace, applyPending: applyPendingToWorkspace };
