import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { anthropicToolCallId, openAIChatToolCallId, safeToolCallId } from './ids';
import { geminiSchema, plainSchema } from './schema';
import { replayableContent, toolResultText } from './history';
import { customModel } from '../models';
import type { AssistantMessage } from '../types';

describe('tool-call ids', () => {
  it('leaves valid ids alone and rewrites others deterministically within the limit', () => {
    expect(anthropicToolCallId('toolu_01ABC')).toBe('toolu_01ABC');
    const responsesId = `call_abc|fc_${'z'.repeat(90)}`;
    const once = anthropicToolCallId(responsesId);
    expect(once).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(anthropicToolCallId(responsesId)).toBe(once);
    expect(openAIChatToolCallId(responsesId).length).toBeLessThanOrEqual(40);
  });
  it('keeps distinct ids distinct even when they clean up to the same text', () => {
    expect(safeToolCallId('a|b', 64)).not.toBe(safeToolCallId('a.b', 64));
  });
});

describe('Gemini schema', () => {
  it('keeps the supported subset, upper-cases types and turns literal unions into enums', () => {
    const schema = Type.Object(
      { path: Type.String({ description: 'file' }), mode: Type.Optional(Type.Union([Type.Literal('a'), Type.Literal('b')])),
        lines: Type.Array(Type.Integer({ minimum: 1 })), note: Type.Union([Type.String(), Type.Null()]) },
      { additionalProperties: false, $id: 'Args' },
    );
    const converted = geminiSchema(plainSchema(schema));
    expect(converted).toEqual({
      type: 'OBJECT',
      required: ['path', 'lines', 'note'],
      properties: {
        path: { type: 'STRING', description: 'file' },
        mode: { type: 'STRING', enum: ['a', 'b'] },
        lines: { type: 'ARRAY', items: { type: 'INTEGER', minimum: 1 } },
        note: { anyOf: [{ type: 'STRING' }, { nullable: true }] },
      },
    });
  });
});

describe('replaying history', () => {
  const model = customModel('anthropic', 'claude-haiku-4-5');
  const reply = (over: Partial<AssistantMessage>): AssistantMessage => ({
    role: 'assistant', content: [], provider: 'anthropic', model: 'claude-haiku-4-5', stopReason: 'aborted', timestamp: 0,
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: { total: 0 } }, ...over,
  });
  it('skips an aborted reply that produced nothing', () => {
    expect(replayableContent(reply({ content: [{ type: 'text', text: '' }] }), model, { keepSignedThinking: true, thinkingAsText: true })).toBeUndefined();
  });
  it('turns unsigned thinking (cut off by an abort) into text', () => {
    const content = replayableContent(reply({ content: [{ type: 'thinking', thinking: 'half a thought' }] }), model, { keepSignedThinking: true, thinkingAsText: true });
    expect(content).toEqual([{ type: 'text', text: 'half a thought' }]);
  });
  it('marks failed tool results for providers without an error flag, once', () => {
    const result = { role: 'toolResult' as const, toolCallId: 'x', toolName: 'bash', isError: true, timestamp: 0, content: [{ type: 'text' as const, text: 'exit 1' }] };
    expect(toolResultText(result, { markErrors: true })).toBe('Error: exit 1');
    expect(toolResultText({ ...result, content: [{ type: 'text', text: 'Error: already' }] }, { markErrors: true })).toBe('Error: already');
    expect(toolResultText(result, { markErrors: false })).toBe('exit 1');
  });
});
