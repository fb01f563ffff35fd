// The agent layer's public surface.
export { runAgentLoop } from './loop';
export { createMutationQueue, mutationQueueFor, normalizeQueueKey, type MutationQueue } from './mutation-queue';
export type * from './types';
