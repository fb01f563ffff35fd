// The validator's findings about a call's arguments as the built-in tools word them (src/ai/validate.ts): one line
// per failing field, named by its JSON pointer, saying what is wrong and what was sent. The validator also reports
// the parents of a failing field ("Property "a" does not match schema"); those say nothing new and are left out.
import type { OutputUnit } from '@cfworker/json-schema';
import { preview } from '../../ai/validate';

// Keywords whose error only says that something below them failed.
const SUMMARIES = new Set(['properties', 'items', 'prefixItems', 'additionalItems', '$ref', '$dynamicRef', '$recursiveRef',
  'allOf', 'patternProperties', 'dependentSchemas', 'unevaluatedProperties', 'unevaluatedItems', 'if', 'then', 'else', 'contains', 'propertyNames']);

/** `- /path: problem` lines for the validator's errors about `value`. */
export function problemLines(errors: OutputUnit[], value: unknown): string[] {
  const lines: string[] = [];
  const seen = new Set<string>();
  const unexpected = new Set<string>();
  const unions = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').map((e) => `${e.keywordLocation}/`);
  for (const error of errors) {
    // Inside a failing union each branch's complaint is a guess; the union's own line stands for them.
    if (unions.some((prefix) => error.keywordLocation.startsWith(prefix))) continue;
    const line = lineFor(error, value, unexpected);
    if (line === undefined || seen.has(line)) continue;
    seen.add(line);
    lines.push(line);
  }
  return lines;
}

function lineFor(error: OutputUnit, value: unknown, unexpected: Set<string>): string | undefined {
  const at = pointerOf(error.instanceLocation);
  switch (error.keyword) {
    case 'required': {
      const property = /property "(.*)"/.exec(error.error)?.[1];
      return `- ${property === undefined ? label(at) : `${at}/${escapePointer(property)}`}: required property missing`;
    }
    case 'additionalProperties': {
      const property = /Property "(.*)" does not match/.exec(error.error)?.[1];
      if (property === undefined) return `- ${label(at)}: ${error.error}`;
      const path = `${at}/${escapePointer(property)}`;
      unexpected.add(path);
      return `- ${path}: unexpected property (not in the schema); remove it`;
    }
    case 'false':
      return unexpected.has(at) ? undefined : `- ${label(at)}: not allowed here`;
    case 'type': {
      const expected = /Expected (.*)\.$/.exec(error.error)?.[1]?.replace(/"/g, '') ?? 'another type';
      return `- ${label(at)}: Expected ${expected.replace(/, /g, ' or ')}, got ${preview(valueAt(value, at))}`;
    }
    case 'anyOf':
    case 'oneOf':
      return `- ${label(at)}: matches none of the allowed shapes, got ${preview(valueAt(value, at))}`;
    default:
      if (SUMMARIES.has(error.keyword)) return undefined;
      return `- ${label(at)}: ${error.error.replace(/^Instance /, 'Value ')} Got ${preview(valueAt(value, at))}`;
  }
}

// The validator writes "#/a/0"; the built-in errors write "/a/0" and "(root)".
function pointerOf(instanceLocation: string): string {
  return instanceLocation.startsWith('#') ? instanceLocation.slice(1) : instanceLocation;
}

function label(pointer: string): string {
  return pointer === '' ? '(root)' : pointer;
}

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function valueAt(value: unknown, pointer: string): unknown {
  if (pointer === '') return value;
  let at: unknown = value;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}
