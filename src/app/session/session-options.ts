// What a SessionController is made from (its options) and what it tells its subscribers (its events), apart from
// the controller so that it reads as behaviour.
import type { AgentTool } from '../../agent/types';
import type { CompactionEntry, Message, Model, StreamFn, TaskEntry } from '../../ai/types';
import type { AgentDefinition } from '../subagents/definitions/agent-definition';
import type { Runtime } from '../../runtime/types';
import type { Workspace } from '../../runtime/workspace/workspace';
import type { Settings } from '../settings/settings';
import type { ExternalTools, RunSources } from './run-options';

/**
 * What a session tells its subscribers (persistence): a message joined the transcript; a compaction was made (told
 * after the message before its `atSeq`); a run ended; the web tools were switched; a subagent task changed (its
 * whole entry as it is now: queued, a message, a status; many times while it runs).
 */
export type SessionEvent =
  | { type: 'message'; message: Message }
  | { type: 'compaction'; compaction: CompactionEntry }
  | { type: 'run-end' }
  | { type: 'web-tools'; on: boolean }
  | { type: 'task'; task: TaskEntry };

export type SessionControllerOptions = {
  id?: string;
  title?: string;
  /** When the session was started (ms since epoch); defaults to now. */
  createdAt?: number;
  /** The sandbox the session works in (a bare runtime is taken as its one Workspace). */
  workspace: Runtime | Workspace;
  /** All the coding tools for this workspace; the settings choose which are active. */
  tools: AgentTool[];
  /** The MCP servers' tools, asked for at each run's start. */
  externalTools?: ExternalTools;
  getSettings(): Settings;
  /** The model for the current settings; throws a message for the person when none can be used. */
  resolveModel(settings: Settings): Model;
  streamFn: StreamFn;
  /** Earlier transcript (a restored or imported session). */
  messages?: Message[];
  /** Its compactions, in the order made. */
  compactions?: CompactionEntry[];
  /** Its subagent tasks as stored (one that was queued or running when the page closed comes back aborted, interrupted). */
  tasks?: TaskEntry[];
  /** The subagent definitions the `task` tool offers (the workspace's and the person's valid ones), read at each run's start. */
  subagentDefinitions?: () => Promise<AgentDefinition[]>;
  now?: () => Date;
  /** One-line news for the next run's prompt, taken once when a run starts (files changed on disk since the last). */
  takeNotices?: () => string[];
  /** Coalesces streaming updates; defaults to the next animation frame in a browser. */
  scheduleUpdate?: (fn: () => void) => void;
  /** The skills for the prompt, made ready in the sandbox (none when absent). */
  skillsForRun?: RunSources['skills'];
};
