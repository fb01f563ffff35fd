// How full the model's context is: the last successful reply's usage (what the provider really counted for that
// request, plus the reply) and an estimate of every message after it. Before any usable usage, the whole request is
// estimated. Each message is estimated once and remembered, and each array's figure is remembered with it: the loop's
// transcript only grows, so a call costs a walk over the messages appended since the last call, not over the session.
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

/**
 * What one array's walk found, kept so the next call on the same array continues it. `usageAt` is the last message
 * at or after `from` with usable usage (-1: none) and `afterUsage` the estimate of the messages after it; `total`
 * sums every message, and is kept only while no usage was found (it is then the figure needed).
 */
type Walk = { from: number; length: number; tail: Message | undefined; usageAt: number; afterUsage: number; total: number | undefined };

/** Counts context tokens, remembering each message's estimate (one counter per session is enough). */
export class ContextTokenCounter {
  private readonly perMessage = new WeakMap<Message, number>();
  private prompt: { systemPrompt: string; tools: readonly Tool[]; tokens: number } | null = null;
  private readonly walks = new WeakMap<readonly Message[], Walk>();

  /**
   * Tokens the next request would take (see the file comment). An array is taken to change only by appends between
   * calls (as the loop's transcript does): a shorter array or a different last message is walked afresh; a list
   * changed in any other way must come as a new array (a compaction's view is one).
   */
  contextTokens(input: TokenCountInput): number {
    const { messages } = input;
    const from = input.usageFrom ?? 0;
    let walk = this.walks.get(messages);
    if (walk && walk.from === from && messages.length >= walk.length && messages[walk.length - 1] === walk.tail) {
      this.extend(walk, messages);
    } else {
      walk = this.walk(messages, from);
      this.walks.set(messages, walk);
    }
    if (walk.usageAt >= 0) return usageTokens(messages[walk.usageAt] as AssistantMessage) + walk.afterUsage;
    return this.promptTokens(input.systemPrompt, input.tools) + (walk.total ?? 0);
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

  // A first look from the end: messages before the last usable usage are never estimated.
  private walk(messages: readonly Message[], from: number): Walk {
    const length = messages.length;
    const tail = messages[length - 1];
    for (let i = length - 1; i >= from; i--) {
      if (hasUsableUsage(messages[i])) return { from, length, tail, usageAt: i, afterUsage: this.sum(messages, i + 1), total: undefined };
    }
    return { from, length, tail, usageAt: -1, afterUsage: 0, total: this.sum(messages, 0) };
  }

  private extend(walk: Walk, messages: readonly Message[]): void {
    for (let i = walk.length; i < messages.length; i++) {
      const message = messages[i];
      if (i >= walk.from && hasUsableUsage(message)) {
        walk.usageAt = i;
        walk.afterUsage = 0;
        walk.total = undefined;
        continue;
      }
      const tokens = this.messageTokens(message);
      walk.afterUsage += tokens;
      if (walk.total !== undefined) walk.total += tokens;
    }
    walk.length = messages.length;
    walk.tail = messages[messages.length - 1];
  }

  private sum(messages: readonly Message[], from: number): number {
    let total = 0;
    for (let i = from; i < messages.length; i++) total += this.messageTokens(messages[i]);
    return total;
  }
}
