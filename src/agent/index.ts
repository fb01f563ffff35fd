// The agent layer's public surface.
export { runAgentLoop } from './loop';
export type * from './types';
