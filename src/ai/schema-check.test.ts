import { Type, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { schemaCheck } from './schema-check';

// Schemas of the shapes tool parameters take (the coding tools' among them), and a few edge cases of Value.Check.
const schemas: Record<string, TSchema> = {
  read: Type.Object({
    path: Type.String({ description: 'Path of the file' }),
    offset: Type.Optional(Type.Integer({ minimum: 1 })),
    limit: Type.Optional(Type.Integer({ minimum: 1 })),
  }),
  edit: Type.Object({
    path: Type.String(),
    edits: Type.Array(Type.Object({ oldText: Type.String(), newText: Type.String() }), { minItems: 1, maxItems: 3 }),
  }),
  bash: Type.Object({ command: Type.String({ minLength: 1 }), timeout: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 600 })) }),
  grep: Type.Object({
    pattern: Type.String({ pattern: '^[a-z]+$' }),
    ignoreCase: Type.Optional(Type.Boolean()),
    mode: Type.Optional(Type.Union([Type.Literal('files'), Type.Literal('lines'), Type.Literal(3)])),
    context: Type.Optional(Type.Integer({ multipleOf: 2, exclusiveMaximum: 10, maximum: 20 })),
  }),
  closed: Type.Object({ a: Type.String(), b: Type.Integer() }, { additionalProperties: false }),
  closedOptional: Type.Object({ a: Type.String(), b: Type.Optional(Type.Integer()) }, { additionalProperties: false }),
  extraTyped: Type.Object({ a: Type.String() }, { additionalProperties: Type.Number(), minProperties: 1, maxProperties: 3 }),
  anyRequired: Type.Object({ value: Type.Any(), other: Type.Unknown(), maybe: Type.Optional(Type.Any()) }),
  nullable: Type.Object({ note: Type.Union([Type.String({ maxLength: 3 }), Type.Null()]) }),
  nested: Type.Array(Type.Array(Type.Union([Type.Integer(), Type.Boolean()])), { minItems: 0 }),
  number: Type.Number({ minimum: -1.5 }),
  empty: Type.Object({}),
};

// A reproducible spread of values: every JSON kind, numbers at the edges, objects with missing, extra and null fields.
function values(): unknown[] {
  const atoms: unknown[] = [
    undefined, null, true, false, 0, 1, 2, 3, 7, -1, -1.5, -2, 1.5, 10, 20, 600, 601, NaN, Infinity, -Infinity,
    '', 'a', 'abc', 'abcd', 'ABC', 'files', 'lines', '7', new Date(0), new Uint8Array(2),
  ];
  const arrays: unknown[] = [[], [1], [true, 2], [[1, false]], [[1], ['x']], [{ oldText: 'a', newText: 'b' }], Array(4).fill({ oldText: '', newText: '' })];
  const keys = ['path', 'offset', 'limit', 'edits', 'command', 'timeout', 'pattern', 'ignoreCase', 'mode', 'context', 'a', 'b', 'c', 'value', 'other', 'maybe', 'note'];
  const pool = [...atoms, ...arrays];
  const objects: unknown[] = [{}, Object.create(null)];
  let seed = 11;
  const next = (n: number) => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) % n;
  for (let i = 0; i < 4_000; i++) {
    const object: Record<string, unknown> = {};
    const count = next(5);
    for (let k = 0; k < count; k++) object[keys[next(keys.length)]] = pool[next(pool.length)];
    objects.push(object);
  }
  return [...pool, ...objects, [{}], { edits: [{ oldText: 'a', newText: 'b', extra: 1 }], path: 'p' }];
}

describe('the closure checker', () => {
  it.each(Object.entries(schemas))('accepts exactly what Value.Check accepts: %s', (_name, schema) => {
    const check = schemaCheck(schema);
    expect(check).toBeDefined();
    const disagreements = values().filter((value) => check!(value) !== Value.Check(schema, value));
    expect(disagreements).toEqual([]);
  });

  it('is tried on values both accepted and rejected', () => {
    for (const schema of Object.values(schemas)) {
      const verdicts = new Set(values().map((value) => Value.Check(schema, value)));
      expect(verdicts).toEqual(new Set([true, false]));
    }
  });

  it('leaves schemas with kinds or keywords it does not know to Value.Check', () => {
    expect(schemaCheck(Type.Object({ when: Type.String({ format: 'date-time' }) }))).toBeUndefined();
    expect(schemaCheck(Type.Array(Type.String(), { uniqueItems: true }))).toBeUndefined();
    expect(schemaCheck(Type.Intersect([Type.Object({ a: Type.String() }), Type.Object({ b: Type.String() })]))).toBeUndefined();
    expect(schemaCheck(Type.Recursive((self) => Type.Object({ children: Type.Array(self) })))).toBeUndefined();
    expect(schemaCheck(Type.Tuple([Type.String(), Type.Number()]))).toBeUndefined();
    expect(schemaCheck(Type.Unsafe<string>({ type: 'string' }))).toBeUndefined();
    expect(schemaCheck({ type: 'string' } as unknown as TSchema)).toBeUndefined(); // plain JSON Schema, no TypeBox kind
  });
});
