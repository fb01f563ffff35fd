// The message and event vocabulary shared by every layer. Shapes follow ../shared/DESIGN.md exactly:
// session files, providers and tests depend on them.
// The ai layer's parts: this vocabulary and argument validation (validate.ts); providers/, one adapter per wire
// format turning a request into the unified event stream (plus the scripted one tests replay); convert/, Conch's
// history and tools in each provider's shapes; the model catalog, live model lists, prices and deprecations
// (models.ts, model-list.ts, cost.ts, model-deprecations.ts); provider errors and retries (errors.ts, retry.ts).
import type { TSchema } from '@sinclair/typebox';

export type TextContent = { type: 'text'; text: string };
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

export type StopReason = 'stop' | 'length' | 'toolUse' | 'error' | 'aborted';

export type Usage = {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
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
  content: (TextContent | ThinkingContent | ToolCall)[];
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
