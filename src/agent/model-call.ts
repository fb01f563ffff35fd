// One model call of a run, with the run's pre-call hook (AgentLoopConfig.beforeModelCall): the hook may replace the
// messages sent (a compacted view, which the run then continues from) and this call's system prompt, and limit the
// output. When the provider rejects the call as too long for the context window, the hook is asked once more; if it
// gives new messages, the same call is sent again and the rejected attempt is never shown. Without a hook this is
// exactly one streamed call.
import type { AssistantMessage, Message, StreamRequest, Tool } from '../ai/types';
import { emptyUsage } from '../ai/types';
import { errorText } from '../ai/messages';
import { ABORTED, type AbortRace } from './abort';
import { streamAssistantMessage } from './assistant-stream';
import { isContextOverflowMessage } from './compaction/overflow';
import type { AgentContext, AgentEvent, AgentLoopConfig, AgentTool, ModelCallInfo, ModelCallPlan } from './types';

/** The reply, the transcript the run continues from, and the active tools its calls are looked up among. */
export type ModelCallResult = { assistant: AssistantMessage; transcript: Message[]; tools: AgentTool[] };

// The tools as the provider sees them, made once per run's tool list: the same array on every call of a run lets the
// context guard's estimate of the tool schemas be remembered instead of recounted before each call.
const providerToolsOf = new WeakMap<readonly AgentTool[], Tool[]>();
function providerTools(tools: readonly AgentTool[]): Tool[] {
  let mapped = providerToolsOf.get(tools);
  if (!mapped) {
    mapped = tools.map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.parameters }));
    providerToolsOf.set(tools, mapped);
  }
  return mapped;
}

/** Streams the model's next message for `transcript`; never rejects. */
export async function callModel(
  transcript: Message[],
  context: AgentContext,
  config: AgentLoopConfig,
  aborts: AbortRace,
  emit: (event: AgentEvent) => void,
): Promise<ModelCallResult> {
  let active = context.tools;
  let tools = providerTools(active);
  // The live transcript, not a copy: nothing is appended while the provider streams, and copying it every turn is
  // quadratic in a long run. A provider that keeps it beyond the call must copy it.
  let systemPrompt = context.systemPrompt;
  const request = (messages: Message[]): StreamRequest => ({ systemPrompt, messages, tools });
  if (!config.beforeModelCall) {
    return { assistant: await streamAssistantMessage(request(transcript), config, aborts, emit), transcript, tools: active };
  }

  const plan = await askHook(config, request(transcript), aborts);
  if (plan instanceof Error) return { assistant: failedBeforeCall(config, plan, emit), transcript, tools: active };
  systemPrompt = plan?.systemPrompt ?? systemPrompt;
  if (plan?.tools) {
    active = plan.tools;
    tools = providerTools(active);
  }
  let messages = plan?.messages ? plan.messages.slice() : transcript;
  const held = new HeldStart(emit);
  const first = await streamAssistantMessage(request(messages), config, aborts, held.emit, plan?.maxTokens);
  if (!held.holding || !isContextOverflowMessage(first)) {
    held.release();
    return { assistant: first, transcript: messages, tools: active };
  }

  const retry = await askHook(config, { ...request(messages), overflow: first.errorMessage }, aborts);
  if (retry instanceof Error || !retry?.messages) {
    held.release();
    return { assistant: first, transcript: messages, tools: active };
  }
  messages = retry.messages.slice();
  systemPrompt = retry.systemPrompt ?? systemPrompt;
  return {
    assistant: await streamAssistantMessage(request(messages), config, aborts, emit, retry.maxTokens),
    transcript: messages,
    tools: active,
  };
}

async function askHook(
  config: AgentLoopConfig,
  call: ModelCallInfo,
  aborts: AbortRace,
): Promise<ModelCallPlan | void | Error> {
  try {
    const plan = await aborts.race(Promise.resolve(config.beforeModelCall!(call, aborts.signal)));
    // Stopped while the hook worked: the call goes ahead unchanged and ends at once as aborted.
    return plan === ABORTED ? undefined : plan;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** A hook that throws fails the call with its reason rather than sending something unintended. */
function failedBeforeCall(config: AgentLoopConfig, error: Error, emit: (event: AgentEvent) => void): AssistantMessage {
  const message: AssistantMessage = {
    role: 'assistant',
    content: [],
    provider: config.model.provider,
    model: config.model.id,
    usage: emptyUsage(),
    stopReason: 'error',
    errorMessage: `Conch could not prepare the request to the model: ${errorText(error)}`,
    timestamp: Date.now(),
  };
  emit({ type: 'message_start', message });
  emit({ type: 'message_end', message });
  return message;
}

/**
 * Holds a call's message_start until something streams, so an attempt rejected outright can be dropped unseen;
 * from the first streamed event on, everything passes through.
 */
class HeldStart {
  private held: AgentEvent[] | null = [];

  constructor(private readonly target: (event: AgentEvent) => void) {}

  get holding(): boolean {
    return this.held !== null;
  }

  readonly emit = (event: AgentEvent): void => {
    if (this.held === null) return this.target(event);
    if (event.type === 'message_update') {
      this.release();
      return this.target(event);
    }
    this.held.push(event);
  };

  release(): void {
    const held = this.held ?? [];
    this.held = null;
    for (const event of held) this.target(event);
  }
}
