import { describe, expect, it } from 'vitest';
import { validateToolArguments } from '../../ai/validate';
import { compileInputSchema } from './input-schema';

function tool(schema: Record<string, unknown>) {
  const compiled = compileInputSchema(schema);
  if (!compiled.ok) throw new Error(compiled.reason);
  return { name: 'mcp__s__t', parameters: compiled.schema.parameters };
}

describe('arguments against a server schema', () => {
  it('coerces what the built-ins coerce: numbers, integers, booleans and strings', () => {
    const t = tool({ type: 'object', properties: { n: { type: 'number' }, i: { type: 'integer' }, b: { type: 'boolean' }, s: { type: 'string' } } });
    expect(validateToolArguments(t, { n: '1.5', i: '3', b: 'false', s: 7 })).toEqual({ ok: true, value: { n: 1.5, i: 3, b: false, s: '7' } });
    expect(validateToolArguments(t, { i: '3.5' }).ok).toBe(false);
  });

  it('drops null for an optional field that does not take it, keeps it where null is valid', () => {
    const t = tool({ type: 'object', properties: { a: { type: 'string' }, b: { type: ['string', 'null'] } } });
    expect(validateToolArguments(t, { a: null, b: null })).toEqual({ ok: true, value: { b: null } });
  });

  it('in a union coerces only when exactly one branch accepts, following $refs', () => {
    const t = tool({
      type: 'object',
      $defs: { count: { type: 'integer' } },
      properties: { u: { anyOf: [{ $ref: '#/$defs/count' }, { type: 'array' }] }, one: { anyOf: [{ type: 'number' }, { type: 'boolean' }, { type: 'string', maxLength: 1 }] }, amb: { anyOf: [{ type: 'integer' }, { type: 'number', minimum: 0 }] } },
    });
    expect(validateToolArguments(t, { u: '4' })).toEqual({ ok: true, value: { u: 4 } });
    expect(validateToolArguments(t, { one: 'true' })).toEqual({ ok: true, value: { one: true } });
    expect(validateToolArguments(t, { amb: '3' }).ok).toBe(false); // both branches would take 3: ambiguous, so not coerced
  });

  it('reports every failing field by its pointer, what is wrong, and what was sent, and never mutates the input', () => {
    const t = tool({
      type: 'object',
      properties: { mode: { type: 'string', enum: ['fast', 'slow'] }, items: { type: 'array', items: { type: 'integer' } }, deep: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] } },
      required: ['mode'],
      additionalProperties: false,
    });
    const input = { mode: 'warp', items: [1, 'two'], deep: {}, other: true };
    const result = validateToolArguments(t, input);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.message.split('\n').filter((l) => l.startsWith('- '))).toEqual([
      '- /mode: Value does not match any of ["fast","slow"]. Got "warp"',
      '- /items/1: Expected integer, got "two"',
      '- /deep/x: required property missing',
      '- /other: unexpected property (not in the schema); remove it',
    ]);
    expect(result.message).toContain('Arguments received:\n{\n  "mode": "warp"');
    expect(input).toEqual({ mode: 'warp', items: [1, 'two'], deep: {}, other: true });
  });

  it('a schema it cannot take makes the tool unavailable with the reason, never a throw', () => {
    expect(compileInputSchema({ type: 'object', properties: { a: { $ref: '#' } }, $ref: '#/properties/a' })).toEqual({
      ok: false, reason: 'its input schema has a $ref loop (a reference that leads back to itself)' });
    expect(compileInputSchema({ type: 'object', properties: { a: { $ref: '#/$defs/missing' } } })).toEqual({
      ok: false, reason: 'its input schema refers to #/$defs/missing, which it does not define' });
    expect(compileInputSchema({ type: 'object', properties: { a: { $ref: 'https://example.com/s.json' } } })).toMatchObject({ ok: false, reason: expect.stringContaining('outside schema') });
    expect(compileInputSchema({ type: 'string' })).toMatchObject({ ok: false });
    expect(compileInputSchema('nope')).toMatchObject({ ok: false });
    expect(compileInputSchema({ type: 'object', properties: { e: { enum: Array.from({ length: 100_000 }, (_, i) => i) } } })).toMatchObject({ ok: false, reason: expect.stringContaining('KB, over the 64 KB') });
  });

  it('a recursive schema that descends (a tree) is fine', () => {
    const t = tool({ type: 'object', $defs: { node: { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#/$defs/node' } } } } }, properties: { root: { $ref: '#/$defs/node' } } });
    expect(validateToolArguments(t, { root: { kids: [{ kids: [] }] } }).ok).toBe(true);
    expect(validateToolArguments(t, { root: { kids: [{ kids: 3 }] } }).ok).toBe(false);
  });
});
