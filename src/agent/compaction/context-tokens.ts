// How full the model's context is: the last successful reply's usage (what the provider really counted for that
// request, plus the reply) and an estimate of every message after it. Before any usable usage, the whole request is
// estimated. Each message is estimated once and remembered, so a call costs a walk over the messages since the last
// reply (or a sum of remembered figures), not a re-read of the session.
import type { AssistantMessage, Message, Tool } from '../../ai/types';
import { estimateMessageTokens, estimateTextTokens, estimateToolTokens } from './estimate';

export type TokenCountInput = {
  systemPrompt: string;
  tools: readonly Tool[];
  messages: readonly Message[];
  /**
   * Index of the first message whose usage describes a request like this one. A compaction changes what is sent, so
   * replies from before it (still in the kept messages) report a context that no longer exists.
   */
  usageFrom?: number;
};

/** The usage total that measures a reply's whole context: input, output and cache reads and writes. */
export function usageTokens(message: AssistantMessage): number {
  const { input, output, cacheRead, cacheWrite } = message.usage;
  return input + output + cacheRead + cacheWrite;
}

/** A reply whose usage can be trusted as a measure of its request. */
export function hasUsableUsage(message: Message): message is AssistantMessage {
  return message.role === 'assistant' && message.stopReason !== 'error' && message.stopReason !== 'aborted' && usageTokens(message) > 0;
}

/** Counts context tokens, remembering each message's estimate (one counter per session is enough). */
export class ContextTokenCounter {
  private readonly perMessage = new WeakMap<Message, number>();
  private prompt: { systemPrompt: string; tools: readonly Tool[]; tokens: number } | null = null;
  /** The total of the last array summed whole: the loop's transcript only grows, so the next sum continues it. */
  private running: { messages: readonly Message[]; length: number; tail: Message | undefined; total: number } | null = null;

  /** Tokens the next request would take (see the file comment). */
  contextTokens(input: TokenCountInput): number {
    const { messages } = input;
    const from = input.usageFrom ?? 0;
    for (let i = messages.length - 1; i >= from; i--) {
      const message = messages[i];
      if (hasUsableUsage(message)) return usageTokens(message) + this.sum(messages, i + 1);
    }
    return this.promptTokens(input.systemPrompt, input.tools) + this.sumAll(messages);
  }

  /** The estimate of one message, remembered. */
  messageTokens(message: Message): number {
    let tokens = this.perMessage.get(message);
    if (tokens === undefined) {
      tokens = estimateMessageTokens(message);
      this.perMessage.set(message, tokens);
    }
    return tokens;
  }

  /** System prompt and tool schemas; remembered while they stay the same objects. */
  promptTokens(systemPrompt: string, tools: readonly Tool[]): number {
    const cached = this.prompt;
    if (cached && cached.systemPrompt === systemPrompt && cached.tools === tools) return cached.tokens;
    const tokens = estimateTextTokens(systemPrompt) + estimateToolTokens(tools);
    this.prompt = { systemPrompt, tools, tokens };
    return tokens;
  }

  private sumAll(messages: readonly Message[]): number {
    const known = this.running;
    const continues =
      known !== null && known.messages === messages && messages.length >= known.length && messages[known.length - 1] === known.tail;
    const total = continues ? known.total + this.sum(messages, known.length) : this.sum(messages, 0);
    this.running = { messages, length: messages.length, tail: messages[messages.length - 1], total };
    return total;
  }

  private sum(messages: readonly Message[], from: number): number {
    let total = 0;
    for (let i = from; i < messages.length; i++) total += this.messageTokens(messages[i]);
    return total;
  }
}
