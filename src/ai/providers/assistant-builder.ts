// Accumulates one AssistantMessage from provider deltas and emits the unified events. Every adapter drives one of
// these, so the event order, the `partial` snapshots and the tool-argument parsing are the same for all providers.
import { parse as parsePartialJson } from 'partial-json';
import { EventStream } from '../event-stream';
import { withCost } from '../cost';
import {
  emptyUsage,
  type AssistantMessage,
  type AssistantMessageEvent,
  type Citation,
  type Model,
  type ServerToolContent,
  type StopReason,
  type Usage,
} from '../types';

export type TokenCounts = Omit<Usage, 'cost'>;

export class AssistantMessageBuilder {
  readonly stream = new EventStream<AssistantMessageEvent, AssistantMessage>();
  readonly message: AssistantMessage;
  /** Raw argument text per tool-call content index; never part of the message, so never persisted. */
  private readonly rawArguments = new Map<number, string>();
  private readonly openToolCalls = new Set<number>();
  private malformedToolCall: string | undefined;
  private finished = false;

  constructor(private readonly model: Model) {
    this.message = {
      role: 'assistant',
      content: [],
      provider: model.provider,
      model: model.id,
      usage: emptyUsage(),
      stopReason: 'stop',
      timestamp: Date.now(),
    };
  }

  /** True once any content block exists; a request is only retried before that. */
  get hasContent(): boolean {
    return this.message.content.length > 0;
  }

  start(): void {
    this.stream.push({ type: 'start', partial: this.snapshot() });
  }

  /** Opens a new text block and returns its content index. */
  openText(): number {
    return this.message.content.push({ type: 'text', text: '' }) - 1;
  }

  appendText(index: number, delta: string): void {
    const block = this.message.content[index];
    if (block?.type !== 'text' || delta === '') return;
    block.text += delta;
    this.stream.push({ type: 'text_delta', contentIndex: index, delta, partial: this.snapshot() });
  }

  /** Appends to the last block when it is text, else opens one: for providers without explicit block boundaries. */
  text(delta: string): void {
    if (delta === '') return;
    const last = this.message.content.length - 1;
    this.appendText(this.message.content[last]?.type === 'text' ? last : this.openText(), delta);
  }

  openThinking(signature?: string): number {
    return this.message.content.push({ type: 'thinking', thinking: '', ...(signature ? { signature } : {}) }) - 1;
  }

  appendThinking(index: number, delta: string): void {
    const block = this.message.content[index];
    if (block?.type !== 'thinking' || delta === '') return;
    block.thinking += delta;
    this.stream.push({ type: 'thinking_delta', contentIndex: index, delta, partial: this.snapshot() });
  }

  thinking(delta: string): void {
    if (delta === '') return;
    const last = this.message.content.length - 1;
    this.appendThinking(this.message.content[last]?.type === 'thinking' ? last : this.openThinking(), delta);
  }

  setSignature(index: number, signature: string): void {
    const block = this.message.content[index];
    if (block?.type === 'thinking') block.signature = signature;
  }

  openToolCall(id: string, name: string, thoughtSignature?: string): number {
    const index =
      this.message.content.push({
        type: 'toolCall',
        id,
        name,
        arguments: {},
        ...(thoughtSignature ? { thoughtSignature } : {}),
      }) - 1;
    this.rawArguments.set(index, '');
    this.openToolCalls.add(index);
    this.stream.push({ type: 'toolcall_start', contentIndex: index, partial: this.snapshot() });
    return index;
  }

  /** Adds streamed argument text; `arguments` becomes the best reading of the JSON so far. */
  appendToolArguments(index: number, delta: string): void {
    const block = this.message.content[index];
    if (block?.type !== 'toolCall' || delta === '') return;
    const raw = (this.rawArguments.get(index) ?? '') + delta;
    this.rawArguments.set(index, raw);
    block.arguments = readPartialObject(raw) ?? block.arguments;
    this.stream.push({ type: 'toolcall_delta', contentIndex: index, delta, partial: this.snapshot() });
  }

  /** Ends a tool call, parsing its arguments strictly; `finalArguments` replaces the streamed text when given. */
  closeToolCall(index: number, finalArguments?: string): void {
    const block = this.message.content[index];
    if (block?.type !== 'toolCall' || !this.openToolCalls.delete(index)) return;
    const raw = finalArguments ?? this.rawArguments.get(index) ?? '';
    this.rawArguments.delete(index);
    const parsed = parseArguments(raw);
    if (parsed) block.arguments = parsed;
    else {
      block.arguments = {};
      this.malformedToolCall ??=
        `The model sent arguments for the tool call "${block.name}" that are not valid JSON ` +
        `(${abbreviate(raw)}). Nothing was run. Try again.`;
    }
    this.stream.push({ type: 'toolcall_end', contentIndex: index, partial: this.snapshot() });
  }

  /** Adds a search or fetch the provider ran (shown with the next event's snapshot); returns its content index. */
  openServerTool(block: Omit<ServerToolContent, 'type'>): number {
    return this.message.content.push({ type: 'serverTool', ...block }) - 1;
  }

  /** The server-tool block with the provider's call id `id`, if any. */
  serverTool(id: string): ServerToolContent | undefined {
    return this.message.content.find((block): block is ServerToolContent => block.type === 'serverTool' && block.id === id);
  }

  /** Adds a cited source to the text block at `index`. */
  addCitation(index: number, citation: Citation): void {
    const block = this.message.content[index];
    if (block?.type === 'text') block.citations = [...(block.citations ?? []), citation];
  }

  setUsage(tokens: TokenCounts): void {
    this.message.usage = withCost(this.model, tokens);
  }

  /** Ends the message normally; malformed tool arguments turn the end into an error so nothing half-parsed runs. */
  finish(stopReason: Extract<StopReason, 'stop' | 'length' | 'toolUse'>): AssistantMessage {
    for (const index of [...this.openToolCalls]) this.closeToolCall(index);
    if (this.malformedToolCall && stopReason !== 'length') return this.fail('error', this.malformedToolCall);
    if (this.finished) return this.message;
    this.finished = true;
    this.message.stopReason = stopReason;
    this.stream.push({ type: 'done', message: this.message });
    this.stream.end(this.message);
    return this.message;
  }

  /** Ends the message as failed or aborted, keeping whatever content arrived. */
  fail(stopReason: 'error' | 'aborted', errorMessage: string): AssistantMessage {
    if (this.finished) return this.message;
    this.finished = true;
    this.openToolCalls.clear();
    this.rawArguments.clear();
    this.message.stopReason = stopReason;
    this.message.errorMessage = errorMessage;
    this.stream.push({ type: 'error', message: this.message });
    this.stream.end(this.message);
    return this.message;
  }

  /** A copy of the message as it stands: blocks are copied, strings and argument objects shared (never mutated). */
  private snapshot(): AssistantMessage {
    return {
      ...this.message,
      usage: { ...this.message.usage, cost: { ...this.message.usage.cost } },
      content: this.message.content.map((block) => ({ ...block })),
    };
  }
}

function parseArguments(raw: string): Record<string, unknown> | undefined {
  if (raw.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(raw);
    return isPlainObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function readPartialObject(raw: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = parsePartialJson(raw);
    return isPlainObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function abbreviate(text: string): string {
  return text.length > 120 ? `${text.slice(0, 120)}…` : text || 'empty';
}
