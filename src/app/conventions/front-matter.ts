// A Markdown file's YAML front matter (skills, command templates): the block between a first line `---` and the next
// `---`, parsed with a real YAML parser so quoted colons, folded and literal descriptions read as YAML says.
import { parse } from 'yaml';

export type FrontMatter = {
  /** The front matter's keys; empty when the file has none. */
  data: Record<string, unknown>;
  /** The Markdown after the front matter, line endings as `\n`. */
  body: string;
  /** Why the front matter could not be read, when it could not. */
  error?: string;
};

const OPENING = /^---[ \t]*\n/;
const CLOSING = /^---[ \t]*$/m;

/** Splits `text` (a BOM and CRLF line endings allowed) into its front matter and its body. */
export function readFrontMatter(text: string): FrontMatter {
  const normalized = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  if (!OPENING.test(normalized)) return { data: {}, body: normalized };
  const rest = normalized.replace(OPENING, '');
  const closing = CLOSING.exec(rest);
  if (!closing) return { data: {}, body: normalized, error: 'the front matter has no closing `---` line' };
  const yaml = rest.slice(0, closing.index);
  const body = rest.slice(closing.index + closing[0].length).replace(/^\n/, '');
  let parsed: unknown;
  try {
    parsed = parse(yaml);
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return { data: {}, body, error: `the front matter is not valid YAML (${message})` };
  }
  if (parsed === null || parsed === undefined) return { data: {}, body };
  if (typeof parsed !== 'object' || Array.isArray(parsed)) return { data: {}, body, error: 'the front matter is not a set of `key: value` lines' };
  return { data: parsed as Record<string, unknown>, body };
}
