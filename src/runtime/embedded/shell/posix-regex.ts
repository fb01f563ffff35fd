// GNU grep's basic (BRE) and extended (ERE) regular expressions as JavaScript ones in unicode mode, tested line by
// line, with GNU's extensions (\| \+ \? in BRE, \< \> \b \B \w \W \s \S, back-references). Equivalence classes and
// collating symbols throw Unsupported.

import { ESCAPES_CLASS } from './search-input';
import { Unsupported } from './unsupported';

/** grep's word characters in a UTF-8 locale: letters, digits and the underscore. */
export const GREP_WORD = '\\p{L}\\p{N}_';

const POSIX_CLASSES: Record<string, string> = {
  alnum: '\\p{L}\\p{N}', alpha: '\\p{L}', blank: '\\t ', cntrl: '\\x00-\\x1F\\x7F', digit: '0-9', graph: '!-~\\u00A1-\\u{10FFFF}',
  lower: '\\p{Ll}', print: ' -~\\u00A0-\\u{10FFFF}', punct: '!-\\/:-@\\[-`{-~', space: '\\t\\n\\v\\f\\r ', upper: '\\p{Lu}',
  xdigit: '0-9A-Fa-f',
};

const JS_SYNTAX = new Set('^$\\.*+?()[]{}|/'.split(''));

/**
 * The JavaScript form of a grep pattern, its back-references shifted by `groupOffset` (the groups of the patterns
 * before it in one alternation); also how many groups it opens.
 */
export function translatePosix(pattern: string, extended: boolean, groupOffset = 0): { source: string; groups: number } {
  let out = '';
  let groups = 0;
  let i = 0;
  // Where an operator would have nothing to apply to, it is an ordinary character (GNU's reading of `*abc` or `a|*b`).
  let atStart = true;
  const startsAlternative = () => {
    atStart = true;
  };
  while (i < pattern.length) {
    const char = pattern[i];
    const wasStart = atStart;
    atStart = false;
    if (char === '\\') {
      const next = pattern[i + 1];
      if (next === undefined) throw new Unsupported('a trailing backslash');
      i += 2;
      if (!extended && next === '(') {
        out += '(';
        groups++;
        startsAlternative();
      } else if (!extended && next === ')') out += ')';
      else if (!extended && next === '|') {
        out += '|';
        startsAlternative();
      } else if (!extended && (next === '+' || next === '?')) out += wasStart ? `\\${next}` : next;
      else if (!extended && next === '{') {
        const interval = readInterval(pattern, i, '\\}');
        if (!interval) throw new Unsupported('a malformed \\{ interval');
        out += wasStart ? `\\{` : interval.quantifier;
        i = wasStart ? i : interval.end;
      } else if (/[1-9]/.test(next)) out += `\\${Number(next) + groupOffset}`;
      else if (next === '<') out += `(?<![${GREP_WORD}])(?=[${GREP_WORD}])`;
      else if (next === '>') out += `(?<=[${GREP_WORD}])(?![${GREP_WORD}])`;
      else if (next === 'b') out += `(?:(?<=[${GREP_WORD}])(?![${GREP_WORD}])|(?<![${GREP_WORD}])(?=[${GREP_WORD}]))`;
      else if (next === 'B') out += `(?:(?<=[${GREP_WORD}])(?=[${GREP_WORD}])|(?<![${GREP_WORD}])(?![${GREP_WORD}]))`;
      else if (next === 'w') out += `[${GREP_WORD}]`;
      else if (next === 'W') out += `[^${GREP_WORD}${ESCAPES_CLASS}]`;
      else if (next === 's') out += '\\s';
      else if (next === 'S') out += `[^\\s${ESCAPES_CLASS}]`;
      else if (next === '`') out += '^';
      else if (next === "'") out += '$';
      else out += literal(next); // any other escaped character stands for itself
    } else if (char === '[') {
      const set = readBracket(pattern, i);
      out += set.source;
      i = set.end;
    } else if (char === '.') {
      out += `[^\\n${ESCAPES_CLASS}]`; // matches \r too, as grep's dot does, but never an invalid byte
      i++;
    } else if (char === '*') {
      // At the start, a basic pattern's star is a character; an extended one's is dropped (GNU warns about it).
      out += !wasStart ? '*' : extended ? '' : '\\*';
      if (wasStart && extended) atStart = true;
      i++;
    } else if (char === '^') {
      // An anchor at the start of the pattern or of a group or alternative (and anywhere in ERE); else a character.
      out += extended || wasStart ? '^' : '\\^';
      if (wasStart) atStart = true; // `^*` matches a literal star
      i++;
    } else if (char === '$') {
      const rest = pattern.slice(i + 1);
      const anchor = extended || rest === '' || rest.startsWith('\\)') || rest.startsWith('\\|');
      out += anchor ? '$' : '\\$';
      i++;
    } else if (extended && char === '(') {
      out += '(';
      groups++;
      startsAlternative();
      i++;
    } else if (extended && char === ')') {
      out += ')';
      i++;
    } else if (extended && char === '|') {
      out += '|';
      startsAlternative();
      i++;
    } else if (extended && (char === '+' || char === '?')) {
      out += wasStart ? '' : char;
      if (wasStart) atStart = true;
      i++;
    } else if (extended && char === '{') {
      const interval = readInterval(pattern, i + 1, '}');
      out += interval ? (wasStart ? '' : interval.quantifier) : '\\{';
      if (interval && wasStart) atStart = true;
      i = interval ? interval.end : i + 1;
    } else {
      const whole = String.fromCodePoint(pattern.codePointAt(i) ?? 0);
      out += literal(whole);
      i += whole.length;
    }
  }
  return { source: out, groups };
}

/** An interval's body after its opening brace at `start`: "2}", "2,}", ",5}", "2,5}" (with `close` as the brace). */
function readInterval(pattern: string, start: number, close: string): { quantifier: string; end: number } | null {
  const end = pattern.indexOf(close, start);
  if (end === -1) return null;
  const body = /^(\d*)(,(\d*))?$/.exec(pattern.slice(start, end));
  if (!body || (body[1] === '' && body[2] === undefined)) return null;
  const min = body[1] === '' ? '0' : body[1];
  return { quantifier: body[2] === undefined ? `{${min}}` : `{${min},${body[3]}}`, end: end + close.length };
}

/** A bracket expression at `start`: backslash is an ordinary character in it, "]" first is a member. */
function readBracket(pattern: string, start: number): { source: string; end: number } {
  let i = start + 1;
  let out = '[';
  if (pattern[i] === '^') {
    out += '^';
    i++;
  }
  let first = true;
  while (i < pattern.length) {
    const char = pattern[i];
    if (char === ']' && !first) return { source: out.startsWith('[^') ? `${out}${ESCAPES_CLASS}]` : `${out}]`, end: i + 1 };
    first = false;
    if (char === '[' && (pattern[i + 1] === ':' || pattern[i + 1] === '=' || pattern[i + 1] === '.')) {
      const kind = pattern[i + 1];
      const close = pattern.indexOf(`${kind}]`, i + 2);
      if (kind !== ':' || close === -1) throw new Unsupported('equivalence classes and collating symbols');
      const members = POSIX_CLASSES[pattern.slice(i + 2, close)];
      if (members === undefined) throw new Unsupported(`the class [:${pattern.slice(i + 2, close)}:]`);
      out += members;
      i = close + 2;
    } else if (char === '-' && out !== '[' && out !== '[^' && pattern[i + 1] !== ']') {
      out += '-';
      i++;
    } else {
      const whole = String.fromCodePoint(pattern.codePointAt(i) ?? 0);
      out += /[\\\]\[^-]/.test(whole) ? `\\${whole}` : whole;
      i += whole.length;
    }
  }
  throw new Unsupported('an unmatched [');
}

function literal(char: string): string {
  return JS_SYNTAX.has(char) ? `\\${char}` : char;
}
