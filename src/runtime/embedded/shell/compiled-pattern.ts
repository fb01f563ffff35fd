// A search command's patterns, already translated to JavaScript sources, compiled into one expression: any of them
// matches, held to whole lines (-x) or whole words (-w) when asked. A source JavaScript does not compile is left to
// just-bash's own command.

import { LineMatcher } from '../../search/line-matcher';
import { Unsupported } from './unsupported';

export type PatternShape = {
  /** Only whole lines match (-x). */
  line: boolean;
  /** Only whole words match (-w): a class of the word characters, e.g. "[\\p{L}]". */
  wordClass?: string;
  ignoreCase: boolean;
};

/** The line matcher, and the same expression with the global flag for the matched parts (-o, --count-matches). */
export type CompiledPattern = { matcher: LineMatcher; everyMatch: RegExp };

/** `sources` as one expression of the given shape; throws Unsupported when JavaScript does not compile it. */
export function compilePattern(sources: readonly string[], shape: PatternShape): CompiledPattern {
  let source = sources.length === 1 ? sources[0] : sources.map((s) => `(?:${s})`).join('|');
  if (shape.line) source = `^(?:${source})$`;
  const word = shape.wordClass;
  if (word !== undefined) source = `(?<!${word})(?:${source})(?!${word})`;
  const flags = shape.ignoreCase ? 'iu' : 'u';
  try {
    return { matcher: new LineMatcher(source, flags), everyMatch: new RegExp(source, `${flags}g`) };
  } catch {
    throw new Unsupported('a pattern JavaScript does not compile');
  }
}
