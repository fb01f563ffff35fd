// The loop's contract with tools, hooks and listeners (../shared/DESIGN.md, "The loop").
import type { Static, TSchema } from '@sinclair/typebox';
import type {
  AssistantMessage,
  AssistantMessageEvent,
  ImageContent,
  Message,
  Model,
  StreamFn,
  StreamOptions,
  TextContent,
  Tool,
  ToolCall,
  ToolResultMessage,
} from '../ai/types';

export interface AgentToolResult {
  content: (TextContent | ImageContent)[];
  details?: unknown;
}

/**
 * What a tool call may touch, as the loop orders the calls of one message by it: 'read' and 'write' name absolute
 * paths (a folder covers everything below it); 'exec' may read or change anything (a shell command); 'fork' works on
 * its own copy of everything, taken when it starts, and its changes come back at its end (a worker subagent).
 */
export interface ToolEffects {
  kind: 'read' | 'write' | 'exec' | 'fork';
  paths: string[];
}

// A tool reports failure by throwing; the loop turns it into an isError result whose text is the error message.
export interface AgentTool<S extends TSchema = TSchema> {
  name: string;
  label: string;
  description: string;
  parameters: S;
  /** Repairs known model quirks before validation; returns its input unchanged when already in shape. */
  prepareArguments?(raw: unknown): unknown;
  executionMode?: 'parallel' | 'sequential';
  /** What a call with these (validated) arguments may touch; a tool that declares nothing overlaps freely. */
  effects?(args: Static<S>): ToolEffects;
  execute(
    toolCallId: string,
    args: Static<S>,
    signal?: AbortSignal,
    onUpdate?: (partial: AgentToolResult) => void,
  ): Promise<AgentToolResult>;
}

export interface AgentContext {
  systemPrompt: string;
  messages: Message[];
  tools: AgentTool[]; // the ACTIVE ones
}

export type BeforeToolCallResult = { block: true; reason?: string } | void;
export type AfterToolCallResult = { content?: AgentToolResult['content']; details?: unknown; isError?: boolean } | void;

/** What is about to be sent to the model (see AgentLoopConfig.beforeModelCall). */
export type ModelCallInfo = {
  systemPrompt: string;
  /** The run's transcript as it would be sent; read it, don't change it. */
  messages: Message[];
  tools: Tool[];
  /** Set when the provider rejected this same call as too long for the context window: its error message. */
  overflow?: string;
};

/**
 * How to make the call: different messages (which the run then continues from), an output limit, a system prompt
 * for this call instead of the run's (its instructions changed mid-run), and the active tools from this call on (an
 * MCP server changed its tool list mid-run: the calls of this call's reply are looked up among these).
 */
export type ModelCallPlan = { messages?: Message[]; maxTokens?: number; systemPrompt?: string; tools?: AgentTool[] };

export interface AgentLoopConfig {
  model: Model;
  streamFn: StreamFn;
  /** Passed through to every streamFn call (API key, thinking level, retry notices). */
  streamOptions?: Omit<StreamOptions, 'signal'>;
  beforeToolCall?(
    call: { toolCall: ToolCall; args: unknown; tool: AgentTool },
    signal?: AbortSignal,
  ): Promise<BeforeToolCallResult>; // may also mutate call.args in place
  afterToolCall?(call: {
    toolCall: ToolCall;
    args: unknown;
    result: AgentToolResult;
    isError: boolean;
  }): Promise<AfterToolCallResult>;
  getSteeringMessages?(): Promise<Message[]>; // polled after each tool batch
  /**
   * Called before every model call, also between the tool batches of one run. Returning `messages` replaces the
   * run's transcript from then on (a compacted view); `maxTokens` limits this call's output, `systemPrompt` replaces
   * the run's for this call (the run keeps its own for the next: return it every time). After a context overflow
   * it is called again for the same call with `overflow` set: returning `messages` then sends the call once more.
   */
  beforeModelCall?(call: ModelCallInfo, signal?: AbortSignal): Promise<ModelCallPlan | void>;
}

export type AgentEvent =
  | { type: 'agent_start' }
  | { type: 'agent_end'; messages: Message[] } // always last
  | { type: 'turn_start' }
  | { type: 'turn_end'; message: AssistantMessage; toolResults: ToolResultMessage[] }
  | { type: 'message_start' | 'message_end'; message: Message }
  | { type: 'message_update'; message: AssistantMessage; event: AssistantMessageEvent }
  | { type: 'tool_execution_start'; toolCallId: string; toolName: string; args: unknown }
  | { type: 'tool_execution_update'; toolCallId: string; toolName: string; partialResult: AgentToolResult }
  | { type: 'tool_execution_end'; toolCallId: string; toolName: string; result: AgentToolResult; isError: boolean };
