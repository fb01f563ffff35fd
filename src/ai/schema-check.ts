// TypeBox's Value.Check, made once per schema into a tree of plain closures (no code generation: the page's CSP
// forbids eval, so TypeBox's TypeCompiler is out). Value.Check walks the schema on every call, dispatching on each
// node's kind and re-reading its keywords; tool calls check the same few schemas thousands of times. Only the kinds and
// keywords tool schemas use are made, each with exactly Value.Check's rules (and its global policies); a schema with
// anything else gets no checker, and its caller uses Value.Check.
import { Kind, type TSchema } from '@sinclair/typebox';
import { TypeSystemPolicy } from '@sinclair/typebox/system';

export type SchemaCheck = (value: unknown) => boolean;

const checks = new WeakMap<TSchema, SchemaCheck | null>();

// Keywords that do not change what Value.Check accepts for the kinds below.
const ANNOTATIONS = new Set(['type', 'title', 'description', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly', '$comment']);
const KEYWORDS: Record<string, readonly string[]> = {
  Any: [],
  Unknown: [],
  Boolean: [],
  Null: [],
  Literal: ['const'],
  String: ['minLength', 'maxLength', 'pattern'],
  Number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  Integer: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  Object: ['properties', 'required', 'additionalProperties', 'minProperties', 'maxProperties'],
  Array: ['items', 'minItems', 'maxItems', 'uniqueItems'],
  Union: ['anyOf'],
};

/** A checker accepting exactly what Value.Check(schema, value) accepts, or undefined when the schema is out of reach. */
export function schemaCheck(schema: TSchema): SchemaCheck | undefined {
  return checkFor(schema, new Set()) ?? undefined;
}

function checkFor(schema: TSchema, visiting: Set<TSchema>): SchemaCheck | null {
  const known = checks.get(schema);
  if (known !== undefined) return known;
  // A schema reached again inside itself cannot be made as a tree; leave it to Value.Check.
  if (visiting.has(schema)) return null;
  visiting.add(schema);
  const made = inReach(schema) ? build(schema, visiting) : null;
  visiting.delete(schema);
  checks.set(schema, made);
  return made;
}

function inReach(schema: TSchema): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  const allowed = KEYWORDS[(schema as { [Kind]?: string })[Kind] ?? ''];
  if (!allowed) return false;
  // $id brings references into play, and anything unlisted may be a rule this file does not know.
  return Object.keys(schema).every((key) => ANNOTATIONS.has(key) || allowed.includes(key));
}

function build(schema: TSchema, visiting: Set<TSchema>): SchemaCheck | null {
  const kind = (schema as { [Kind]: string })[Kind];
  switch (kind) {
    case 'Any':
    case 'Unknown':
      return () => true;
    case 'Boolean':
      return (value) => typeof value === 'boolean';
    case 'Null':
      return (value) => value === null;
    case 'Literal': {
      const constant: unknown = schema.const;
      return (value) => value === constant;
    }
    case 'String':
      return stringCheck(schema);
    case 'Number':
      return numberCheck(schema, (value) => TypeSystemPolicy.IsNumberLike(value));
    case 'Integer':
      return numberCheck(schema, (value) => Number.isInteger(value));
    case 'Object':
      return objectCheck(schema, visiting);
    case 'Array':
      return arrayCheck(schema, visiting);
    case 'Union': {
      if (!Array.isArray(schema.anyOf)) return null;
      const branches = (schema.anyOf as TSchema[]).map((branch) => checkFor(branch, visiting));
      if (branches.some((branch) => branch === null)) return null;
      const all = branches as SchemaCheck[];
      return (value) => all.some((branch) => branch(value));
    }
    default:
      return null;
  }
}

function stringCheck(schema: TSchema): SchemaCheck | null {
  const { minLength, maxLength, pattern } = schema as { minLength?: number; maxLength?: number; pattern?: string };
  // Value.Check makes `new RegExp(pattern)` (no flags) each time; one made here answers the same.
  let regex: RegExp | undefined;
  try {
    regex = pattern === undefined ? undefined : new RegExp(pattern);
  } catch {
    return null;
  }
  return (value) =>
    typeof value === 'string' &&
    (minLength === undefined || value.length >= minLength) &&
    (maxLength === undefined || value.length <= maxLength) &&
    (regex === undefined || regex.test(value));
}

function numberCheck(schema: TSchema, isKind: (value: unknown) => boolean): SchemaCheck {
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf } = schema as Record<string, number | undefined>;
  return (value) => {
    if (!isKind(value)) return false;
    const n = value as number;
    return (
      (exclusiveMaximum === undefined || n < exclusiveMaximum) &&
      (exclusiveMinimum === undefined || n > exclusiveMinimum) &&
      (maximum === undefined || n <= maximum) &&
      (minimum === undefined || n >= minimum) &&
      (multipleOf === undefined || n % multipleOf === 0)
    );
  };
}

type PropertyCheck = { key: string; check: SchemaCheck; required: boolean; mustBePresent: boolean };

function objectCheck(schema: TSchema, visiting: Set<TSchema>): SchemaCheck | null {
  const properties = (schema.properties ?? {}) as Record<string, TSchema>;
  const required: readonly string[] = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const { minProperties, maxProperties } = schema as { minProperties?: number; maxProperties?: number };
  const knownKeys = Object.getOwnPropertyNames(properties);
  const plans: PropertyCheck[] = [];
  for (const key of knownKeys) {
    const check = checkFor(properties[key], visiting);
    if (!check) return null;
    const kind = (properties[key] as { [Kind]?: string })[Kind];
    plans.push({ key, check, required: required.includes(key), mustBePresent: kind === 'Any' || kind === 'Unknown' });
  }
  const extra = schema.additionalProperties;
  let extraCheck: SchemaCheck | null | undefined; // undefined: any extra property is fine
  if (extra === false) extraCheck = () => false;
  else if (typeof extra === 'object' && extra !== null) extraCheck = checkFor(extra as TSchema, visiting);
  if (extraCheck === null) return null;
  const known = new Set(knownKeys);
  const allRequired = required.length === knownKeys.length;
  return (value) => {
    if (!TypeSystemPolicy.IsObjectLike(value)) return false;
    const object = value as Record<string, unknown>;
    if (minProperties !== undefined && !(Object.getOwnPropertyNames(object).length >= minProperties)) return false;
    if (maxProperties !== undefined && !(Object.getOwnPropertyNames(object).length <= maxProperties)) return false;
    for (const plan of plans) {
      if (plan.required) {
        if (!plan.check(object[plan.key])) return false;
        if (plan.mustBePresent && !(plan.key in object)) return false;
      } else if (TypeSystemPolicy.IsExactOptionalProperty(object, plan.key) && !plan.check(object[plan.key])) {
        return false;
      }
    }
    if (extraCheck === undefined) return true;
    const keys = Object.getOwnPropertyNames(object);
    // Value.Check's shortcut, kept so both agree even where it is lenient (all required, as many keys as known).
    if (extra === false && allRequired && keys.length === knownKeys.length) return true;
    return keys.every((key) => known.has(key) || extraCheck(object[key]));
  };
}

function arrayCheck(schema: TSchema, visiting: Set<TSchema>): SchemaCheck | null {
  const { minItems, maxItems, uniqueItems } = schema as { minItems?: number; maxItems?: number; uniqueItems?: boolean };
  // Unique items need TypeBox's value hash; arrays asking for them are left to Value.Check.
  if (uniqueItems === true) return null;
  if (typeof schema.items !== 'object' || schema.items === null || Array.isArray(schema.items)) return null;
  const item = checkFor(schema.items as TSchema, visiting);
  if (!item) return null;
  return (value) => {
    if (!Array.isArray(value)) return false;
    if (minItems !== undefined && !(value.length >= minItems)) return false;
    if (maxItems !== undefined && !(value.length <= maxItems)) return false;
    for (const element of value) if (!item(element)) return false;
    return true;
  };
}
