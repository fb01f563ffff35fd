// Tool-argument validation: repair what a model unambiguously meant, then check against the tool's TypeBox schema.
// Never TypeBox's code-generating compiler (the page runs under a CSP without 'unsafe-eval'): a schema's checker is
// made once as closures (schema-check.ts), and TypeBox's interpreted Value.Check covers what that does not reach and
// has the last word on a rejection.
import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { errorText } from './messages';
import { schemaCheck } from './schema-check';

export type ValidationResult = { ok: true; value: unknown } | { ok: false; message: string };

/**
 * A schema from outside Conch (an MCP server's JSON Schema, which TypeBox cannot read) carries its own check under
 * this key; it coerces and reports with the helpers below, so its errors read like a built-in tool's.
 */
export const OWN_VALIDATION = Symbol('conch.ownValidation');
export type OwnValidation = (toolName: string, rawArgs: unknown) => ValidationResult;

/** Checks a tool call's arguments; on success `value` is a fresh coerced copy (the input is never mutated). */
export function validateToolArguments(tool: { name: string; parameters: TSchema }, rawArgs: unknown): ValidationResult {
  const schema = tool.parameters;
  const own = (schema as { [OWN_VALIDATION]?: OwnValidation })[OWN_VALIDATION];
  if (own) return own(tool.name, rawArgs);
  try {
    const value = normalizerFor(schema)(rawArgs);
    if (schemaCheck(schema)?.(value) || Value.Check(schema, value)) return { ok: true, value };
    return { ok: false, message: describeFailure(tool.name, schema, value, rawArgs) };
  } catch (error) {
    const reason = errorText(error);
    return {
      ok: false,
      message:
        `Validation failed for tool "${tool.name}": its parameter schema could not be checked (${reason}). ` +
        `This is a problem with the tool, not with your arguments.`,
    };
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Normalization: one walk that copies plain objects and arrays and applies the coercions the schema makes
// unambiguous. Each schema is analysed once into a tree of closures (plain functions, no code generation).

type Normalizer = (value: unknown) => unknown;

const normalizers = new WeakMap<TSchema, Normalizer>();

function normalizerFor(schema: TSchema): Normalizer {
  let normalizer = normalizers.get(schema);
  if (!normalizer) {
    // Registered before building so a self-referencing schema object resolves to this entry instead of looping.
    let built: Normalizer | undefined;
    normalizers.set(schema, (value) => (built ?? copyJson)(value));
    built = buildNormalizer(schema);
    normalizers.set(schema, built);
    normalizer = built;
  }
  return normalizer;
}

function buildNormalizer(schema: TSchema): Normalizer {
  if (Array.isArray(schema.anyOf)) return unionNormalizer(schema.anyOf as TSchema[]);
  if (Array.isArray(schema.allOf)) return intersectNormalizer(schema.allOf as TSchema[]);
  switch (schema.type) {
    case 'number':
      return coerceToNumber;
    case 'integer':
      return coerceToInteger;
    case 'boolean':
      return coerceToBoolean;
    case 'string':
      return coerceToString;
    case 'object':
      return objectNormalizer(schema);
    case 'array':
      return arrayNormalizer(schema);
    default:
      return copyJson;
  }
}

const decimalNumber = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

function parseDecimal(value: string): number | undefined {
  const text = value.trim();
  if (!decimalNumber.test(text)) return undefined;
  const parsed = Number(text);
  return Number.isFinite(parsed) ? parsed : undefined;
}

/** The limited coercions, by JSON Schema type: what a model unambiguously meant (e.g. "3" for a number). */
export const COERCIONS = {
  number: (value: unknown) => coerceToNumber(value),
  integer: (value: unknown) => coerceToInteger(value),
  boolean: (value: unknown) => coerceToBoolean(value),
  string: (value: unknown) => coerceToString(value),
} as const;

function coerceToNumber(value: unknown): unknown {
  if (typeof value !== 'string') return copyJson(value);
  return parseDecimal(value) ?? value;
}

function coerceToInteger(value: unknown): unknown {
  if (typeof value !== 'string') return copyJson(value);
  const parsed = parseDecimal(value);
  return parsed !== undefined && Number.isInteger(parsed) ? parsed : value;
}

function coerceToBoolean(value: unknown): unknown {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return copyJson(value);
}

function coerceToString(value: unknown): unknown {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : value;
  if (typeof value === 'boolean') return String(value);
  return copyJson(value);
}

type PropertyPlan = { key: string; normalize: Normalizer; dropNull: boolean };

function objectNormalizer(schema: TSchema): Normalizer {
  const properties = (schema.properties ?? {}) as Record<string, TSchema>;
  const required = new Set<string>(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const plans = new Map<string, PropertyPlan>();
  for (const [key, propertySchema] of Object.entries(properties)) {
    plans.set(key, {
      key,
      normalize: normalizerFor(propertySchema),
      // A model often sends null for "not given"; only drop it where null is not itself a valid value.
      dropNull: !required.has(key) && !acceptsNull(propertySchema),
    });
  }
  const extra = schema.additionalProperties;
  const normalizeExtra = typeof extra === 'object' && extra !== null ? normalizerFor(extra as TSchema) : copyJson;
  return (value) => {
    if (!isPlainObject(value)) return copyJson(value);
    const copy: Record<string, unknown> = {};
    for (const key in value) {
      const field = value[key];
      const plan = plans.get(key);
      if (!plan) copy[key] = normalizeExtra(field);
      else if (field === null && plan.dropNull) continue;
      else copy[key] = plan.normalize(field);
    }
    return copy;
  };
}

function acceptsNull(schema: TSchema): boolean {
  try {
    return Value.Check(schema, null);
  } catch {
    return false;
  }
}

function arrayNormalizer(schema: TSchema): Normalizer {
  const items = schema.items;
  if (Array.isArray(items)) {
    const byPosition = (items as TSchema[]).map(normalizerFor);
    return (value) =>
      Array.isArray(value) ? value.map((item, i) => (byPosition[i] ?? copyJson)(item)) : copyJson(value);
  }
  const normalizeItem = typeof items === 'object' && items !== null ? normalizerFor(items as TSchema) : copyJson;
  return (value) => (Array.isArray(value) ? value.map((item) => normalizeItem(item)) : copyJson(value));
}

function unionNormalizer(branches: TSchema[]): Normalizer {
  const candidates = branches.map((branch) => ({ schema: branch, normalize: normalizerFor(branch) }));
  return (value) => {
    const untouched = copyJson(value);
    if (candidates.some((c) => matches(c.schema, untouched))) return untouched;
    // Coerce only when exactly one branch accepts the result; otherwise the intent is ambiguous.
    let chosen: unknown = untouched;
    let fits = 0;
    for (const candidate of candidates) {
      const coerced = candidate.normalize(value);
      if (matches(candidate.schema, coerced)) {
        fits++;
        chosen = coerced;
      }
    }
    return fits === 1 ? chosen : untouched;
  };
}

function matches(schema: TSchema, value: unknown): boolean {
  const check = schemaCheck(schema);
  return check ? check(value) : Value.Check(schema, value);
}

function intersectNormalizer(members: TSchema[]): Normalizer {
  const steps = members.map(normalizerFor);
  return (value) => steps.reduce<unknown>((current, step) => step(current), value);
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** Deep copy of JSON-shaped data; anything else (class instances, typed arrays) is kept by reference. */
export function copyJson(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(copyJson);
  if (!isPlainObject(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const key in value) copy[key] = copyJson(value[key]);
  return copy;
}

// ---------------------------------------------------------------------------------------------------------------
// The failure message is read by the model: every failing field, what is wrong with it, and what it sent.

const MAX_ARGUMENTS_CHARS = 2000;
const MAX_PROBLEM_LINES = 40;

function describeFailure(toolName: string, schema: TSchema, checked: unknown, rawArgs: unknown): string {
  const lines: string[] = [];
  const missing = new Set<string>();
  const seen = new Set<string>();
  for (const error of Value.Errors(schema, checked)) {
    // The JSON pointer TypeBox reports (/edits/0/oldText): it names nested fields and array items unambiguously.
    const path = error.path === '' ? '(root)' : error.path;
    let problem: string;
    if (error.message === 'Expected required property') {
      missing.add(path);
      problem = 'required property missing';
    } else if (missing.has(path) && error.value === undefined) {
      continue; // the "missing" line already says it; TypeBox also reports the absent value's type
    } else {
      problem = describeProblem(error.schema, error.message, error.value);
    }
    const line = `- ${path}: ${problem}`;
    if (seen.has(line)) continue;
    seen.add(line);
    lines.push(line);
  }
  return validationFailure(toolName, lines, rawArgs);
}

/** The model's message for failing arguments: one `- path: problem` line per failing field, then what it sent. */
export function validationFailure(toolName: string, problemLines: string[], rawArgs: unknown): string {
  const lines = [...problemLines];
  if (lines.length === 0) lines.push('- (root): does not match the schema');
  if (lines.length > MAX_PROBLEM_LINES) {
    const hidden = lines.length - MAX_PROBLEM_LINES;
    lines.length = MAX_PROBLEM_LINES;
    lines.push(`- ... and ${hidden} more problems of the same kinds`);
  }
  return (
    `Validation failed for tool "${toolName}":\n${lines.join('\n')}\n\n` +
    `Arguments received:\n${formatArguments(rawArgs)}\n\n` +
    `Fix the listed fields and call the tool again.`
  );
}

function describeProblem(schema: TSchema, message: string, value: unknown): string {
  let problem = message;
  if (message === 'Expected union value' && Array.isArray(schema.anyOf)) {
    problem = `Expected ${(schema.anyOf as TSchema[]).map(describeSchema).join(' or ')}`;
  } else if (message === 'Unexpected property') {
    return 'unexpected property (not in the schema); remove it';
  }
  return value === undefined ? problem : `${problem}, got ${preview(value)}`;
}

function describeSchema(schema: TSchema): string {
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (typeof schema.type === 'string') return schema.type;
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as TSchema[]).map(describeSchema).join(' or ');
  return 'a value of another shape';
}

/** A value as short JSON for an error line (at most 80 characters). */
export function preview(value: unknown): string {
  const text = safeJson(value, 0);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function formatArguments(rawArgs: unknown): string {
  const text = safeJson(rawArgs, 2);
  if (text.length <= MAX_ARGUMENTS_CHARS) return text;
  return `${text.slice(0, MAX_ARGUMENTS_CHARS)}\n... (${text.length - MAX_ARGUMENTS_CHARS} more characters not shown)`;
}

function safeJson(value: unknown, indent: number): string {
  if (value === undefined) return 'undefined';
  try {
    return JSON.stringify(value, null, indent) ?? String(value);
  } catch {
    return String(value);
  }
}
