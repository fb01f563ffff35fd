// The 3-way merge a session's workers use, once slice FORK's ./merge/ lands: until then none, so workers run on
// the live workspace (as on WebContainer). The integrator replaces `undefined` with `{ planMerge, applyMergePlan,
// planApply }` imported from './merge/…'.
import type { SubagentMerge } from './worker-fork';

export const subagentMerge: SubagentMerge | undefined = undefined;
