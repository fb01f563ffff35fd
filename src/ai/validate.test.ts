import { Type, type TSchema } from '@sinclair/typebox';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { validateToolArguments } from './validate';

function validate(parameters: TSchema, args: unknown) {
  return validateToolArguments({ name: 'probe', parameters }, args);
}

function expectValue(parameters: TSchema, args: unknown, expected: unknown) {
  const result = validate(parameters, args);
  if (!result.ok) throw new Error(`expected success, got:\n${result.message}`);
  expect(result.value).toEqual(expected);
}

function expectFailure(parameters: TSchema, args: unknown): string {
  const result = validate(parameters, args);
  if (result.ok) throw new Error(`expected failure, got ${JSON.stringify(result.value)}`);
  return result.message;
}

describe('validateToolArguments: coercion', () => {
  const numbers = Type.Object({ n: Type.Number(), i: Type.Integer() });

  it('turns numeric strings into numbers and integers', () => {
    expectValue(numbers, { n: '42.5', i: '42' }, { n: 42.5, i: 42 });
    expectValue(numbers, { n: '-3', i: '1e3' }, { n: -3, i: 1000 });
  });

  it('does not make an integer of "42.1"', () => {
    expect(expectFailure(numbers, { n: 1, i: '42.1' })).toContain('- /i: Expected integer, got "42.1"');
  });

  it('does not treat empty, blank or non-decimal strings as numbers', () => {
    for (const bad of ['', ' ', 'abc', '0x10', 'Infinity', '1,5']) {
      expect(expectFailure(numbers, { n: bad, i: 1 })).toContain('- /n: Expected number');
    }
  });

  it('turns "true" and "false" into booleans but not "1" or "yes"', () => {
    const flags = Type.Object({ flag: Type.Boolean() });
    expectValue(flags, { flag: 'true' }, { flag: true });
    expectValue(flags, { flag: 'false' }, { flag: false });
    expect(expectFailure(flags, { flag: '1' })).toContain('- /flag: Expected boolean, got "1"');
    expect(expectFailure(flags, { flag: 'yes' })).toContain('- /flag: Expected boolean');
    expect(expectFailure(flags, { flag: 1 })).toContain('- /flag: Expected boolean');
  });

  it('turns numbers and booleans into strings where a string is wanted', () => {
    const strings = Type.Object({ a: Type.String(), b: Type.String() });
    expectValue(strings, { a: 5, b: true }, { a: '5', b: 'true' });
    expect(expectFailure(strings, { a: { x: 1 }, b: 'ok' })).toContain('- /a: Expected string');
  });

  it('recurses into nested objects and arrays', () => {
    const nested = Type.Object({
      edits: Type.Array(Type.Object({ line: Type.Integer(), text: Type.String() })),
      options: Type.Object({ dryRun: Type.Boolean() }),
    });
    expectValue(
      nested,
      { edits: [{ line: '3', text: 7 }, { line: 4, text: 'x' }], options: { dryRun: 'false' } },
      { edits: [{ line: 3, text: '7' }, { line: 4, text: 'x' }], options: { dryRun: false } },
    );
  });

  it('coerces into a union only when exactly one branch fits', () => {
    const oneFits = Type.Object({ v: Type.Union([Type.Integer(), Type.Null()]) });
    expectValue(oneFits, { v: '7' }, { v: 7 });
    // "5" already is a valid string branch: left alone rather than guessed into a number.
    const ambiguous = Type.Object({ v: Type.Union([Type.String(), Type.Number()]) });
    expectValue(ambiguous, { v: '5' }, { v: '5' });
    // true fits neither branch as-is; only the string branch accepts a coerced form.
    expectValue(Type.Object({ v: Type.Union([Type.String(), Type.Integer()]) }), { v: true }, { v: 'true' });
    const oneOfThree = Type.Object({ v: Type.Union([Type.Integer(), Type.Boolean(), Type.Literal('x')]) });
    expectValue(oneOfThree, { v: 'true' }, { v: true });
    // Both branches accept a coerced form of "3": no guess, so it fails.
    const bothCoerce = Type.Object({ v: Type.Union([Type.Integer(), Type.Number()]) });
    expect(expectFailure(bothCoerce, { v: '3' })).toContain('- /v: Expected integer or number');
  });

  it('drops null from optional fields, but keeps it where null is allowed or the field is required', () => {
    const schema = Type.Object({
      path: Type.String(),
      limit: Type.Optional(Type.Integer()),
      label: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    });
    expectValue(schema, { path: 'a', limit: null }, { path: 'a' });
    expectValue(schema, { path: 'a', label: null }, { path: 'a', label: null });
    expect(expectFailure(schema, { path: null })).toContain('- /path: Expected string, got null');
  });

  it('never mutates or aliases the input', () => {
    const schema = Type.Object({ count: Type.Integer(), nested: Type.Object({ items: Type.Array(Type.String()) }) });
    const input = { count: '7', nested: { items: ['a', 1] } };
    const snapshot = structuredClone(input);
    const result = validate(schema, input);
    expect(result).toEqual({ ok: true, value: { count: 7, nested: { items: ['a', '1'] } } });
    expect(input).toEqual(snapshot);

    const clean = { count: 1, nested: { items: ['a'] } };
    const cleanResult = validate(schema, clean);
    if (!cleanResult.ok) throw new Error(cleanResult.message);
    expect(cleanResult.value).toEqual(clean);
    expect(cleanResult.value).not.toBe(clean);
    expect((cleanResult.value as typeof clean).nested).not.toBe(clean.nested);
  });
});

describe('validateToolArguments: failure message', () => {
  const editSchema = Type.Object({
    path: Type.String(),
    edits: Type.Array(Type.Object({ oldText: Type.String(), newText: Type.String() })),
    mode: Type.Optional(Type.Union([Type.Literal('exact'), Type.Literal('fuzzy')])),
  });

  it('names the tool, lists every failing path with its problem, and shows the arguments', () => {
    const args = { edits: [{ oldText: { nope: 1 }, newText: 'b' }, { newText: 'c' }], mode: 'loose' };
    const message = validateToolArguments({ name: 'edit', parameters: editSchema }, args);
    if (message.ok) throw new Error('expected failure');
    const text = message.message;
    expect(text).toContain('Validation failed for tool "edit"');
    expect(text).toContain('- /path: required property missing');
    expect(text).toContain('- /edits/0/oldText: Expected string');
    expect(text).toContain('- /edits/1/oldText: required property missing');
    expect(text).toContain('- /mode: Expected "exact" or "fuzzy", got "loose"');
    // A missing field is reported once, not also as "Expected string".
    expect(text.match(/- \/path:/g)).toHaveLength(1);
    expect(text).toContain('Arguments received:');
    expect(text).toContain('"newText": "c"');
  });

  it('truncates huge arguments in the message', () => {
    const message = expectFailure(editSchema, { path: 1.5e400, edits: 'x'.repeat(100_000) });
    expect(message.length).toBeLessThan(4000);
    expect(message).toMatch(/more characters not shown/);
  });

  it('caps a very long list of problems', () => {
    const list = Type.Object({ items: Type.Array(Type.Integer()) });
    const message = expectFailure(list, { items: Array.from({ length: 500 }, (_, i) => `x${i}`) });
    expect(message).toContain('- /items/0: Expected integer, got "x0"');
    expect(message).toContain('- ... and 460 more problems');
    expect(message).not.toContain('items/499');
  });

  it('reports unexpected properties when the schema forbids them', () => {
    const strict = Type.Object({ a: Type.String() }, { additionalProperties: false });
    expect(expectFailure(strict, { a: 'x', b: 1 })).toContain('- /b: unexpected property');
  });

  it('reports a non-object argument list at the root', () => {
    expect(expectFailure(editSchema, 'path=a')).toContain('- (root): Expected object');
  });
});

describe('validateToolArguments: no code generation', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('validates and reports failures with Function and eval unavailable (CSP without unsafe-eval)', () => {
    const schema = Type.Object({ path: Type.String(), count: Type.Integer(), tags: Type.Array(Type.String()) });
    const forbidden = () => {
      throw new EvalError('code generation from strings disallowed');
    };
    vi.stubGlobal('Function', forbidden);
    vi.stubGlobal('eval', forbidden);
    expect(validate(schema, { path: 'a', count: '2', tags: [1] })).toEqual({
      ok: true,
      value: { path: 'a', count: 2, tags: ['1'] },
    });
    expect(expectFailure(schema, { count: 'x' })).toContain('- /path: required property missing');
  });
});
