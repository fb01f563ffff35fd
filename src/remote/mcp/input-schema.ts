// A server's input schema made ready to check calls, once per listing: refused (the tool is then unavailable, with
// the reason) when it is too large, not an object schema, has reference loops or outside references, or the
// validator cannot take it. @cfworker/json-schema interprets the schema (no eval: the page's CSP forbids it).
import { dereference, validate, type Schema } from '@cfworker/json-schema';
import { OWN_VALIDATION, validationFailure, type OwnValidation, type ValidationResult } from '../../ai/validate';
import { errorText } from '../../ai/messages';
import type { TSchema } from '@sinclair/typebox';
import { coerceArguments, type SchemaContext } from './argument-coercion';
import { problemLines } from './argument-errors';
import { referenceProblem } from './schema-refs';

/** A schema's JSON may be at most this long: megabytes of enum would be sent to the model on every turn. */
export const MAX_SCHEMA_CHARS = 64 * 1024;
const DRAFT = '2020-12';

export type CompiledSchema = {
  /** The schema as the loop's parameters: what the model is shown, carrying its own check (OWN_VALIDATION). */
  parameters: TSchema;
  check: OwnValidation;
};

export type SchemaCompile = { ok: true; schema: CompiledSchema } | { ok: false; reason: string };

/** Checks a listed tool's inputSchema and makes its argument check; never throws. */
export function compileInputSchema(raw: unknown): SchemaCompile {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return refuse('its input schema is not a JSON object');
  const root = raw as Record<string, unknown>;
  if (root.type !== 'object') return refuse('its input schema does not describe an object (type: "object")');
  try {
    const size = JSON.stringify(root).length;
    if (size > MAX_SCHEMA_CHARS) {
      return refuse(`its input schema is ${Math.round(size / 1024)} KB, over the ${MAX_SCHEMA_CHARS / 1024} KB Conch sends a model`);
    }
    const problem = referenceProblem(root);
    if (problem) return refuse(problem);
    const lookup = dereference(root as Schema);
    const context: SchemaContext = {
      root,
      accepts: (schema, value) => validate(value, schema as Schema | boolean, DRAFT, lookup, true).valid,
    };
    const check = argumentCheck(context, lookup);
    // One trial call finds what the validator only meets when it runs (an anchor it cannot resolve, a bad pattern).
    check('trial', {});
    const parameters = { ...root, [OWN_VALIDATION]: check } as unknown as TSchema;
    return { ok: true, schema: { parameters, check } };
  } catch (error) {
    return refuse(`the validator cannot read its input schema (${errorText(error).slice(0, 200)})`);
  }
}

function argumentCheck(context: SchemaContext, lookup: Record<string, Schema | boolean>): OwnValidation {
  const root = context.root as Schema;
  return (toolName, rawArgs): ValidationResult => {
    try {
      const value = coerceArguments(context, rawArgs ?? {});
      if (context.accepts(root, value)) return { ok: true, value };
      const lines = problemLines(validate(value, root, DRAFT, lookup, false).errors, value);
      return { ok: false, message: validationFailure(toolName, lines, rawArgs) };
    } catch (error) {
      return {
        ok: false,
        message: `Validation failed for tool "${toolName}": its parameter schema could not be checked (${errorText(error)}). ` +
          'This is a problem with the tool, not with your arguments.',
      };
    }
  };
}

function refuse(reason: string): SchemaCompile {
  return { ok: false, reason };
}
