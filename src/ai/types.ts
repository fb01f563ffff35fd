// The message and event vocabulary shared by every layer. Shapes follow ../shared/DESIGN.md exactly:
// session files, providers and tests depend on them.
// The ai layer's parts: this vocabulary and argument validation (validate.ts); providers/, one adapter per wire
// format turning a request into the unified event stream (plus the scripted one tests replay); convert/, Conch's
// history and tools in each provider's shapes; the model catalog, live model lists, prices and deprecations
// (models.ts, model-list.ts, cost.ts, model-deprecations.ts); provider errors and retries (errors.ts, retry.ts).
import type { TSchema } from '@sinclair/typebox';

export type TextContent = {
  type: 'text';
  text: string;
  /** Where a reply's text came from, when the provider cited web sources (assistant text only). */
  citations?: Citation[];
};
export type ImageContent = { type: 'image'; data: string /* base64 */; mimeType: string };
export type ThinkingContent = { type: 'thinking'; thinking: string; signature?: string };
export type ToolCall = {
  type: 'toolCall';
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  /** Gemini's opaque signature for this call; sent back only to the same model, which requires it. */
  thoughtSignature?: string;
};

/** A web page a provider's server-side tool found or read. */
export type WebSource = { url: string; title?: string };

/** A cited source of a reply's text; `raw` is the provider's own citation, sent back to that provider as received. */
export type Citation = WebSource & { citedText?: string; raw?: unknown };

/**
 * A search or fetch the provider ran on its own servers (Anthropic's web_search / web_fetch, OpenAI's web_search,
 * Gemini's grounding). `raw` holds the provider's blocks or items exactly as received, in order: the same provider is
 * sent them back unchanged, as its API requires; the other fields are what a person reads.
 */
export type ServerToolContent = {
  type: 'serverTool';
  kind: 'web_search' | 'web_fetch';
  /** The provider's id for the call (Anthropic's srvtoolu_…, OpenAI's ws_…). */
  id: string;
  /** The search's query (web_search) or the page's address (web_fetch), once known. */
  query?: string;
  url?: string;
  sources: WebSource[];
  /** The provider's error code when the search or fetch failed (e.g. max_uses_exceeded). */
  error?: string;
  /** Which provider's wire format `raw` is in. */
  provider: string;
  raw: unknown[];
};

export type StopReason = 'stop' | 'length' | 'toolUse' | 'error' | 'aborted';

export type Usage = {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** Searches the provider ran for this reply (billed per search, beside the tokens); absent means none. */
  webSearches?: number;
  /** `unknown` when the model's price is not known: `total` then counts nothing and must not be shown as $0. */
  cost: { total: number; unknown?: boolean };
};

export type UserMessage = {
  role: 'user';
  content: string | (TextContent | ImageContent)[];
  timestamp: number;
  /** The slash command as the person typed it, when `content` is its expansion (what the model is sent). */
  command?: string;
};
export type AssistantMessage = {
  role: 'assistant';
  content: (TextContent | ThinkingContent | ToolCall | ServerToolContent)[];
  provider: string;
  model: string;
  usage: Usage;
  stopReason: StopReason;
  errorMessage?: string;
  timestamp: number;
};
export type ToolResultMessage = {
  role: 'toolResult';
  toolCallId: string;
  toolName: string;
  content: (TextContent | ImageContent)[];
  details?: unknown;
  isError: boolean;
  timestamp: number;
};
export type Message = UserMessage | AssistantMessage | ToolResultMessage;

export type Model = {
  provider: string;
  id: string;
  name: string;
  baseUrl?: string;
  contextWindow: number;
  maxTokens: number;
  input: ('text' | 'image')[];
  reasoning: boolean;
  /** $ per million tokens; absent when the price is unknown (a custom model, a new one, a changing promotion). */
  cost?: { input: number; output: number; cacheRead: number; cacheWrite: number };
  /**
   * Present when the model has its provider's server-side web tools (search and fetch); `searchPer1000` is the $ price
   * of 1,000 searches, absent when unknown.
   */
  webTools?: { searchPer1000?: number };
};

/** What a provider is told about a tool: the model-facing half of an AgentTool. */
export type Tool = { name: string; description: string; parameters: TSchema };

export type AssistantMessageEvent =
  | { type: 'start'; partial: AssistantMessage }
  | {
      type: 'text_delta' | 'thinking_delta' | 'toolcall_delta';
      contentIndex: number;
      delta: string;
      partial: AssistantMessage;
    }
  | { type: 'toolcall_start' | 'toolcall_end'; contentIndex: number; partial: AssistantMessage }
  | { type: 'done'; message: AssistantMessage } // stopReason stop | length | toolUse
  | { type: 'error'; message: AssistantMessage }; // stopReason error | aborted, errorMessage set

export interface AssistantMessageStream extends AsyncIterable<AssistantMessageEvent> {
  result(): Promise<AssistantMessage>;
}

export type StreamRequest = { systemPrompt: string; messages: Message[]; tools: Tool[] };

export type StreamOptions = {
  signal?: AbortSignal;
  apiKey?: string;
  maxTokens?: number;
  thinking?: 'off' | 'low' | 'medium' | 'high';
  /** Called before each retry of a failed request, so the UI can say it is retrying. */
  onRetry?: (info: { attempt: number; delayMs: number; reason: string }) => void;
  headers?: Record<string, string>;
  /** Offer the provider's own web search and fetch (only for a model with `webTools`). */
  webTools?: boolean;
};

export type StreamFn = (model: Model, request: StreamRequest, options?: StreamOptions) => AssistantMessageStream;

export function emptyUsage(): Usage {
  return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: { total: 0 } };
}

/**
 * A compaction of a session's context: an append-only entry beside the messages (DESIGN.md "Long sessions"). The model
 * then sees the system prompt, one user message carrying `summary` and the file lists, and the messages from
 * `firstKeptSeq` on; the person keeps the whole transcript.
 */
export type CompactionEntry = {
  type: 'compaction';
  /** The model's summary of everything before `firstKeptSeq` (fixed sections), without the file lists. */
  summary: string;
  /** The first message the model still sees verbatim; equal to `atSeq` when nothing is kept. */
  firstKeptSeq: number;
  /** How many messages the session had when it was made: it applies to every model call from there on. */
  atSeq: number;
  /** The context before and after, in tokens (the after figure is an estimate). */
  tokensBefore: number;
  tokensAfter: number;
  /** Files read but not modified, and files modified, by every tool call summarised so far (computed by Conch). */
  readFiles: string[];
  modifiedFiles: string[];
  timestamp: number;
  /** What the summary calls cost; it counts in the session's totals. */
  usage?: Usage;
  /** The person's focus text from `/compact <focus>`, when given. */
  focus?: string;
  /** The agent's todo list as it stood when the compaction was made, re-stated to the model with the summary. */
  todos?: TodoItem[];
};

export type TodoStatus = 'pending' | 'in_progress' | 'completed';
/** One item of the agent's todo list (the `todo` tool's arguments are the whole list). */
export type TodoItem = { content: string; status: TodoStatus };

/** Where a subagent task stands (the task card's `data-status`). */
export type TaskStatus = 'queued' | 'running' | 'done' | 'error' | 'conflict' | 'aborted';

/** One hunk of a worker's change that overlaps a change made meanwhile in the live workspace (1-based lines of the fork point). */
export type TaskConflictHunk = { baseStart: number; base: string; live: string; worker: string };
export type TaskConflict = { path: string; hunks: TaskConflictHunk[] };

/**
 * A worker's change to one file, kept while it is not applied (a conflict): the file at the fork point and in the
 * worker's tree (null: absent); `encoding: 'base64'` for a file that is not UTF-8 text.
 */
export type TaskPendingFile = { path: string; base: string | null; worker: string | null; encoding?: 'base64' };

/**
 * A subagent task (the `task` tool): its own transcript, beside the session's messages (../shared/DESIGN.md,
 * "Session file": its own line type). It answers the parent's call `toolCallId`; the parent's model sees only the
 * call's result, never these messages.
 */
export type TaskEntry = {
  type: 'task';
  toolCallId: string;
  /** explore, worker, or a definition's name. */
  agent: string;
  description: string;
  prompt: string;
  provider: string;
  model: string;
  status: TaskStatus;
  /** Set with status aborted when the page was closed or reloaded while the task ran. */
  interrupted?: boolean;
  /** When the call was made (queued), started running, ended (ms since epoch). */
  queuedAt: number;
  startedAt?: number;
  endedAt?: number;
  /** The subagent's transcript, its prompt first; partial while it runs. */
  messages: Message[];
  compactions?: CompactionEntry[];
  /** Tool calls it made. */
  toolCalls: number;
  /** All its model calls, summaries included: counted in the session's totals. */
  usage: Usage;
  /** A worker's changed files (workdir-relative), applied or not. */
  filesChanged?: string[];
  conflicts?: TaskConflict[];
  /** A worker's changes not applied yet (status conflict), for a later apply; dropped once applied or discarded. */
  pending?: TaskPendingFile[];
  /** How a worker's changes ended: merged at its end, applied later, discarded, or made on the live workspace (no fork). */
  outcome?: 'merged' | 'applied' | 'discarded' | 'live';
  /** Its final reply, as given to the parent. */
  result?: string;
  error?: string;
};
