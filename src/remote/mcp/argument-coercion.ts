// The built-in tools' limited coercion (src/ai/validate.ts) applied to a server's JSON Schema: "3" for a number,
// "true" for a boolean, 3 for a string, null dropped for an optional field that does not take null, and in a union
// only a coercion that exactly one branch accepts. Everything else is copied as it came, for the validator to judge.
import { COERCIONS, copyJson, isPlainObject } from '../../ai/validate';
import { resolveLocalRef } from './schema-refs';

type Node = Record<string, unknown>;

export type SchemaContext = {
  root: Node;
  /** Whether `value` satisfies the subschema `schema` (of `root`). */
  accepts(schema: unknown, value: unknown): boolean;
};

// References are followed only this many times along one value: schema-refs.ts has ruled out loops already.
const MAX_REF_HOPS = 32;

/** A fresh copy of `value` with the coercions `schema` makes unambiguous (the input is never changed). */
export function coerceArguments(context: SchemaContext, value: unknown): unknown {
  return coerce(context, context.root, value, 0);
}

function coerce(context: SchemaContext, schema: unknown, value: unknown, hops: number): unknown {
  if (!isPlainObject(schema)) return copyJson(value);
  if (typeof schema.$ref === 'string' && hops < MAX_REF_HOPS) {
    const target = resolveLocalRef(context.root, schema.$ref);
    if (target !== undefined) return coerce(context, target, value, hops + 1);
  }
  const union = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (union) return coerceUnion(context, schema, union, value, hops);
  if (Array.isArray(schema.allOf)) return schema.allOf.reduce<unknown>((current, part) => coerce(context, part, current, hops), value);
  const type = schema.type;
  if (Array.isArray(type)) return coerceToOneOfTypes(type, value);
  switch (type) {
    case 'number':
    case 'integer':
    case 'boolean':
    case 'string':
      return COERCIONS[type](value);
    case 'object':
      return coerceObject(context, schema, value, hops);
    case 'array':
      return coerceArray(context, schema, value, hops);
    default:
      return isPlainObject(value) && isPlainObject(schema.properties) ? coerceObject(context, schema, value, hops) : copyJson(value);
  }
}

function coerceUnion(context: SchemaContext, schema: Node, branches: unknown[], value: unknown, hops: number): unknown {
  const untouched = copyJson(value);
  if (context.accepts(schema, untouched)) return untouched;
  let chosen: unknown = untouched;
  let fits = 0;
  for (const branch of branches) {
    const coerced = coerce(context, branch, value, hops);
    if (context.accepts(branch, coerced)) {
      fits++;
      chosen = coerced;
    }
  }
  return fits === 1 ? chosen : untouched;
}

function coerceToOneOfTypes(types: unknown[], value: unknown): unknown {
  if (types.some((type) => hasType(type, value))) return copyJson(value);
  const fitting = types
    .filter((type): type is keyof typeof COERCIONS => typeof type === 'string' && type in COERCIONS)
    .map((type) => ({ type, coerced: COERCIONS[type](value) }))
    .filter(({ type, coerced }) => hasType(type, coerced));
  return fitting.length === 1 ? fitting[0].coerced : copyJson(value);
}

function hasType(type: unknown, value: unknown): boolean {
  switch (type) {
    case 'null': return value === null;
    case 'boolean': return typeof value === 'boolean';
    case 'string': return typeof value === 'string';
    case 'number': return typeof value === 'number' && Number.isFinite(value);
    case 'integer': return typeof value === 'number' && Number.isInteger(value);
    case 'array': return Array.isArray(value);
    case 'object': return isPlainObject(value);
    default: return false;
  }
}

function coerceObject(context: SchemaContext, schema: Node, value: unknown, hops: number): unknown {
  if (!isPlainObject(value)) return copyJson(value);
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const extra = schema.additionalProperties;
  const copy: Record<string, unknown> = {};
  for (const key in value) {
    const field = value[key];
    if (Object.prototype.hasOwnProperty.call(properties, key)) {
      const fieldSchema = properties[key];
      // A model often sends null for "not given"; only drop it where null is not itself a valid value.
      if (field === null && !required.has(key) && !context.accepts(fieldSchema, null)) continue;
      copy[key] = coerce(context, fieldSchema, field, hops);
    } else {
      copy[key] = isPlainObject(extra) ? coerce(context, extra, field, hops) : copyJson(field);
    }
  }
  return copy;
}

function coerceArray(context: SchemaContext, schema: Node, value: unknown, hops: number): unknown {
  if (!Array.isArray(value)) return copyJson(value);
  const byPosition = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : [];
  const rest = isPlainObject(schema.items) ? schema.items : undefined;
  return value.map((item, i) => coerce(context, i < byPosition.length ? byPosition[i] : rest, item, hops));
}
