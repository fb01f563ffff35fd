// Tool parameter schemas are TypeBox (JSON Schema). Anthropic and OpenAI take them as they are; Gemini accepts only an
// OpenAPI subset, so unknown keywords are removed and `const` / type arrays are rewritten into what it understands.
import type { TSchema } from '@sinclair/typebox';

/** The schema as plain JSON (TypeBox's symbol-keyed metadata dropped). */
export function plainSchema(schema: TSchema): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
}

const GEMINI_KEYWORDS = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'items',
  'minItems',
  'maxItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'anyOf',
  'default',
  'propertyOrdering',
]);

/** A copy of `schema` that Gemini's functionDeclarations accept. */
export function geminiSchema(schema: unknown): Record<string, unknown> {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return {};
  const source = schema as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (!GEMINI_KEYWORDS.has(key)) continue;
    if (key === 'properties' && typeof value === 'object' && value !== null) {
      out.properties = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, geminiSchema(sub)]));
    } else if (key === 'items') {
      out.items = geminiSchema(value);
    } else if (key === 'anyOf' && Array.isArray(value)) {
      out.anyOf = value.map(geminiSchema);
    } else if (key === 'type') {
      Object.assign(out, geminiType(value));
    } else {
      out[key] = value;
    }
  }
  if ('const' in source) {
    out.enum = [String(source.const)];
    out.type ??= 'STRING';
  }
  if (Array.isArray(out.enum)) out.enum = out.enum.map(String);
  // A union of constants (TypeBox's Union of Literals) reads better to Gemini as one enum.
  if (Array.isArray(out.anyOf) && out.anyOf.every((option) => Array.isArray((option as { enum?: unknown }).enum))) {
    out.enum = out.anyOf.flatMap((option) => (option as { enum: string[] }).enum);
    out.type = 'STRING';
    delete out.anyOf;
  }
  return out;
}

function geminiType(value: unknown): Record<string, unknown> {
  const types = (Array.isArray(value) ? value : [value]).filter((t): t is string => typeof t === 'string');
  const nullable = types.includes('null');
  const main = types.find((t) => t !== 'null');
  return { ...(main ? { type: main.toUpperCase() } : {}), ...(nullable ? { nullable: true } : {}) };
}
