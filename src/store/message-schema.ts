// TypeBox schemas of the message types (src/ai/types.ts), used wherever messages enter from outside this tab's
// memory: session files and IndexedDB. Validation is interpreted (Value.Errors): no code generation, no eval.
import { Type, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { Message } from '../ai/types';

const Source = Type.Object({ url: Type.String(), title: Type.Optional(Type.String()) });
const Citation = Type.Object({ url: Type.String(), title: Type.Optional(Type.String()), citedText: Type.Optional(Type.String()) });
const Text = Type.Object({ type: Type.Literal('text'), text: Type.String(), citations: Type.Optional(Type.Array(Citation)) });
const Image = Type.Object({ type: Type.Literal('image'), data: Type.String(), mimeType: Type.String() });
const Thinking = Type.Object({
  type: Type.Literal('thinking'),
  thinking: Type.String(),
  signature: Type.Optional(Type.String()),
});
const ToolCallBlock = Type.Object({
  type: Type.Literal('toolCall'),
  id: Type.String(),
  name: Type.String(),
  arguments: Type.Record(Type.String(), Type.Unknown()),
});
// `raw` is the provider's own blocks, checked only as a list: they go back to that provider, which judges them.
const ServerTool = Type.Object({
  type: Type.Literal('serverTool'),
  kind: Type.Union([Type.Literal('web_search'), Type.Literal('web_fetch')]),
  id: Type.String(),
  query: Type.Optional(Type.String()),
  url: Type.Optional(Type.String()),
  sources: Type.Array(Source),
  error: Type.Optional(Type.String()),
  provider: Type.String(),
  raw: Type.Array(Type.Unknown()),
});
export const UsageSchema = Type.Object({
  input: Type.Number(),
  output: Type.Number(),
  cacheRead: Type.Number(),
  cacheWrite: Type.Number(),
  webSearches: Type.Optional(Type.Number()),
  cost: Type.Object({ total: Type.Number() }),
});

const blockSchemas: Record<string, TSchema> = { text: Text, image: Image, thinking: Thinking, toolCall: ToolCallBlock, serverTool: ServerTool };
const allowedBlocks = {
  user: ['text', 'image'],
  assistant: ['text', 'thinking', 'toolCall', 'serverTool'],
  toolResult: ['text', 'image'],
} as const;

// Content is checked block by block (below), so the message schemas only require an array there.
const messageSchemas: Record<Message['role'], TSchema> = {
  user: Type.Object({
    role: Type.Literal('user'),
    content: Type.Union([Type.String(), Type.Array(Type.Unknown())]),
    timestamp: Type.Number(),
    command: Type.Optional(Type.String()),
  }),
  assistant: Type.Object({
    role: Type.Literal('assistant'),
    content: Type.Array(Type.Unknown()),
    provider: Type.String(),
    model: Type.String(),
    usage: UsageSchema,
    stopReason: Type.Union(['stop', 'length', 'toolUse', 'error', 'aborted'].map((r) => Type.Literal(r))),
    errorMessage: Type.Optional(Type.String()),
    timestamp: Type.Number(),
  }),
  toolResult: Type.Object({
    role: Type.Literal('toolResult'),
    toolCallId: Type.String(),
    toolName: Type.String(),
    content: Type.Array(Type.Unknown()),
    details: Type.Optional(Type.Unknown()),
    isError: Type.Boolean(),
    timestamp: Type.Number(),
  }),
};

export type SchemaProblem = { path: string; problem: string };

/** The first problem found in `value` as a Message ("content/0/type": "..."), or null when it is one. */
export function findMessageProblem(value: unknown): SchemaProblem | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { path: '', problem: 'must be an object' };
  }
  const role = (value as { role?: unknown }).role;
  if (role !== 'user' && role !== 'assistant' && role !== 'toolResult') {
    return { path: 'role', problem: `must be "user", "assistant" or "toolResult", got ${describe(role)}` };
  }
  const problem = firstProblem(messageSchemas[role], value);
  if (problem) return problem;
  const content = (value as { content: unknown }).content;
  if (typeof content === 'string') return null;
  const allowed: readonly string[] = allowedBlocks[role];
  for (const [index, block] of (content as unknown[]).entries()) {
    const type = typeof block === 'object' && block !== null ? (block as { type?: unknown }).type : undefined;
    if (typeof type !== 'string' || !allowed.includes(type)) {
      const expected = allowed.map((t) => `"${t}"`).join(', ');
      return { path: `content/${index}/type`, problem: `must be one of ${expected} in a ${role} message, got ${describe(type)}` };
    }
    const blockProblem = firstProblem(blockSchemas[type], block);
    if (blockProblem) return { path: join(`content/${index}`, blockProblem.path), problem: blockProblem.problem };
  }
  return null;
}

/** Type guard over findMessageProblem. */
export function isMessage(value: unknown): value is Message {
  return findMessageProblem(value) === null;
}

/** First TypeBox error of `value` against `schema`, as a slash path without the leading slash. */
export function firstProblem(schema: TSchema, value: unknown): SchemaProblem | null {
  // The yes/no check is several times cheaper than building the error iterator, and almost every value passes.
  if (Value.Check(schema, value)) return null;
  const error = Value.Errors(schema, value).First();
  if (!error) return null;
  const path = error.path.replace(/^\//, '');
  if (error.value === undefined) return { path, problem: 'is required but missing' };
  const options = (error.schema as { anyOf?: { const?: unknown }[] }).anyOf;
  if (options?.every((option) => typeof option.const === 'string')) {
    const list = options.map((option) => JSON.stringify(option.const)).join(', ');
    return { path, problem: `must be one of ${list}, got ${describe(error.value)}` };
  }
  return { path, problem: `${lowerFirst(error.message)}, got ${describe(error.value)}` };
}

function join(base: string, path: string): string {
  return path ? `${base}/${path}` : base;
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** A short, safe description of a value for error messages (never the whole of a huge value). */
export function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return String(value);
}
