// What the page shows of the agent at work, built from the loop's events: the reply being streamed (at most once per
// frame), a card per tool call, and the Terminal's log of the agent's bash commands. The session controller feeds it
// the events and the policy's verdicts; the transcript itself stays the controller's.
import type { AgentEvent, AgentTool, BeforeToolCallResult } from '../../agent/types';
import { messageText } from '../../ai/messages';
import type { AssistantMessage, Message, ToolCall } from '../../ai/types';
import { AgentCommandLog } from '../terminal/agent-command-log.svelte';
import { ToolCardMap } from './tool-cards/tool-card-map.svelte';

/** The reply being streamed grew; `toolCallEnded`: a tool call's arguments just completed. */
export type ReplyProgress = (partial: AssistantMessage, toolCallEnded: boolean) => void;

export class AgentActivity {
  /** The assistant message being streamed, updated at most once per frame. */
  streaming = $state.raw<AssistantMessage | null>(null);
  /** "Retrying in N s" while the provider request is being retried. */
  retryNotice = $state<string | null>(null);
  readonly cards = new ToolCardMap();
  readonly commandLog = new AgentCommandLog();

  private readonly replyListeners = new Set<ReplyProgress>();
  private pendingStreaming: AssistantMessage | null = null;
  private updateScheduled = false;

  /** `messageEnded`: a message the loop completed, for the transcript; `scheduleUpdate` coalesces streaming updates. */
  constructor(
    private readonly messageEnded: (message: Message) => void,
    private readonly scheduleUpdate: (fn: () => void) => void = nextFrame,
  ) {}

  /** Hears the reply being streamed as it grows (many times a second; keep it cheap); returns the unsubscribe. */
  watchReply(listener: ReplyProgress): () => void {
    this.replyListeners.add(listener);
    return () => this.replyListeners.delete(listener);
  }

  /** Cards and the command log as a stored transcript left them (a restored or imported session). */
  rebuild(messages: Message[]): void {
    this.cards.clear();
    for (const m of messages) {
      if (m.role === 'assistant') for (const call of toolCallsOf(m)) this.cards.cardFor(call.id, call.name).args = call.arguments;
      if (m.role === 'toolResult') this.cards.applyResult(m);
    }
    this.commandLog.rebuild(messages);
  }

  handle(event: AgentEvent): void {
    switch (event.type) {
      case 'agent_start':
      case 'turn_start':
      case 'turn_end':
      case 'agent_end':
        return;
      case 'message_start':
        if (event.message.role === 'assistant') this.showStreaming(event.message);
        return;
      case 'message_update':
        this.retryNotice = null;
        this.showStreaming(event.message);
        for (const listener of this.replyListeners) listener(event.message, event.event.type === 'toolcall_end');
        if (event.event.type === 'toolcall_start' || event.event.type === 'toolcall_delta' || event.event.type === 'toolcall_end') {
          const block = event.message.content[event.event.contentIndex];
          if (block?.type === 'toolCall') this.cards.cardFor(block.id, block.name).args = { ...block.arguments };
        }
        return;
      case 'message_end':
        this.ended(event.message);
        return;
      case 'tool_execution_start':
        // Checks and approval come after this event; the card turns 'running' once beforeToolCall lets it through.
        this.cards.cardFor(event.toolCallId, event.toolName).args = event.args;
        return;
      case 'tool_execution_update': {
        const card = this.cards.cardFor(event.toolCallId, event.toolName);
        card.partialOutput = messageText(event.partialResult.content, { separator: '' });
        this.commandLog.output(event.toolCallId, card.partialOutput);
        return;
      }
      case 'tool_execution_end': {
        const card = this.cards.cardFor(event.toolCallId, event.toolName);
        if (card.status !== 'blocked') card.status = event.isError ? 'error' : 'done';
        this.commandLog.ended(event.toolCallId, event.result, event.isError);
        return;
      }
      default: {
        const unreachable: never = event;
        return unreachable;
      }
    }
  }

  /** The policy's verdict on a call: its card shows it blocked, or running (a bash command joins the log). */
  decided(call: { toolCall: ToolCall; args: unknown; tool: AgentTool }, result: BeforeToolCallResult | undefined, signal: AbortSignal | undefined): void {
    const card = this.cards.cardFor(call.toolCall.id, call.toolCall.name);
    if (result?.block) {
      card.blockedReason = result.reason ?? 'Blocked by the approval policy.';
      card.status = 'blocked';
    } else if (!signal?.aborted) {
      card.args = call.args;
      card.status = 'running';
      if (call.tool.name === 'bash') this.commandLog.started(call.toolCall.id, call.args);
    }
  }

  /** After a run: the last streamed text is shown, and nothing it started may look as if it still runs. */
  runEnded(): void {
    this.flushStreaming();
    this.streaming = null;
    this.pendingStreaming = null;
    this.retryNotice = null;
    this.cards.settleLeftovers();
    this.commandLog.settle();
  }

  private ended(message: Message): void {
    if (message.role === 'assistant') {
      this.pendingStreaming = null;
      this.streaming = null;
      for (const call of toolCallsOf(message)) this.cards.cardFor(call.id, call.name).args = call.arguments;
    }
    if (message.role === 'toolResult') this.cards.applyResult(message);
    this.messageEnded(message);
  }

  private showStreaming(message: AssistantMessage): void {
    this.pendingStreaming = message;
    if (this.updateScheduled) return;
    this.updateScheduled = true;
    this.scheduleUpdate(() => this.flushStreaming());
  }

  private flushStreaming(): void {
    this.updateScheduled = false;
    const partial = this.pendingStreaming;
    // Providers grow one partial message in place; a fresh shell (and fresh blocks) is what makes the view update.
    if (partial) this.streaming = { ...partial, content: partial.content.map((block) => ({ ...block })) };
  }
}

function toolCallsOf(message: AssistantMessage): ToolCall[] {
  return message.content.filter((c): c is ToolCall => c.type === 'toolCall');
}

/** Runs `fn` at the next animation frame in a browser (about one frame later elsewhere). */
function nextFrame(fn: () => void): void {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => fn());
  else setTimeout(fn, 16);
}
