// A regular expression tested on each line of a file, rewritten so it can run over the whole file in one pass: nothing
// in it can match a newline any more, and ^ and $ mean the start and end of a line. A match the rewritten expression
// finds in the whole text is then a match of the original on that line (and every match on a line is found), so a
// file is scanned at regex-engine speed instead of being split into lines first.

const NEVER = '[^\\s\\S]';
const LINE_START = '(?<![^\\n])';
const LINE_END = '(?![^\\n])';
const NEWLINE = 10;

/**
 * The line-confined form of `source` (JavaScript syntax, compiled with `unicode` or not), or null when it holds
 * something this rewrite does not follow (an octal escape, an unknown escape in legacy syntax): such patterns are
 * matched line by line instead.
 */
export function lineConfinedSource(source: string, unicode: boolean): string | null {
  const groups = countCapturingGroups(source);
  let out = '';
  let i = 0;
  while (i < source.length) {
    const char = source[i];
    if (char === '\\') {
      const escape = readEscape(source, i, unicode, groups);
      if (escape === null) return null;
      out += escape.rewritten;
      i = escape.end;
    } else if (char === '[') {
      const set = readClass(source, i, unicode);
      if (set === null) return null;
      out += set.rewritten;
      i = set.end;
    } else if (char === '^') {
      out += LINE_START;
      i++;
    } else if (char === '$') {
      out += LINE_END;
      i++;
    } else if (char === '\n') {
      out += NEVER;
      i++;
    } else {
      out += char;
      i++;
    }
  }
  return out;
}

type Piece = { rewritten: string; end: number };

/** An escape outside a character class, starting at the backslash at `start`. */
function readEscape(source: string, start: number, unicode: boolean, groups: number): Piece | null {
  const next = source[start + 1];
  if (next === undefined) return null;
  const end = start + 2;
  switch (next) {
    case 'b':
    case 'B':
    case 'w':
    case 'd':
    case 'S':
      return { rewritten: source.slice(start, end), end };
    case 's':
      return { rewritten: '[^\\S\\n]', end };
    case 'W':
      return { rewritten: '[^\\w\\n]', end };
    case 'D':
      return { rewritten: '[^\\d\\n]', end };
    case 'p':
    case 'P': {
      if (!unicode) return { rewritten: source.slice(start, end), end };
      const close = source.indexOf('}', end);
      if (source[end] !== '{' || close === -1) return null;
      return { rewritten: `(?:(?!\\n)${source.slice(start, close + 1)})`, end: close + 1 };
    }
    case 'k': {
      const close = source.indexOf('>', end);
      if (source[end] !== '<' || close === -1) return { rewritten: source.slice(start, end), end };
      return { rewritten: source.slice(start, close + 1), end: close + 1 };
    }
    default: {
      if (next >= '0' && next <= '9') return readDecimalEscape(source, start, unicode, groups);
      const char = readCharacterEscape(source, start, unicode);
      if (char === null) return null;
      return { rewritten: char.code === NEWLINE ? NEVER : source.slice(start, char.end), end: char.end };
    }
  }
}

/** \0, or a backreference \1…: in legacy syntax a number above the group count is an octal escape, not followed. */
function readDecimalEscape(source: string, start: number, unicode: boolean, groups: number): Piece | null {
  let end = start + 1;
  while (end < source.length && source[end] >= '0' && source[end] <= '9') end++;
  const digits = source.slice(start + 1, end);
  if (digits === '0') return { rewritten: '\\0', end };
  if (digits.startsWith('0')) return null;
  if (unicode || Number(digits) <= groups) return { rewritten: source.slice(start, end), end };
  return null;
}

type Char = { code: number; end: number };

/**
 * A single-character escape at `start` (\n, \x0a, \u{1F600}, \cJ, \., …) and the character it stands for; null for
 * one this rewrite does not follow. Class escapes (\d, \w, …) are not single characters and are handled by callers.
 */
function readCharacterEscape(source: string, start: number, unicode: boolean): Char | null {
  const next = source[start + 1];
  const end = start + 2;
  switch (next) {
    case 'n':
      return { code: 10, end };
    case 'r':
      return { code: 13, end };
    case 't':
      return { code: 9, end };
    case 'v':
      return { code: 11, end };
    case 'f':
      return { code: 12, end };
    case 'c': {
      const letter = source[end];
      if (letter !== undefined && /[A-Za-z]/.test(letter)) return { code: letter.charCodeAt(0) % 32, end: end + 1 };
      return unicode ? null : { code: 92, end: start + 1 }; // legacy: a lone backslash, then "c"
    }
    case 'x': {
      const hex = source.slice(end, end + 2);
      if (/^[0-9A-Fa-f]{2}$/.test(hex)) return { code: parseInt(hex, 16), end: end + 2 };
      return unicode ? null : { code: 120, end };
    }
    case 'u': {
      if (unicode && source[end] === '{') {
        const close = source.indexOf('}', end);
        const hex = source.slice(end + 1, close);
        if (close === -1 || !/^[0-9A-Fa-f]+$/.test(hex)) return null;
        return { code: parseInt(hex, 16), end: close + 1 };
      }
      const hex = source.slice(end, end + 4);
      if (/^[0-9A-Fa-f]{4}$/.test(hex)) return { code: parseInt(hex, 16), end: end + 4 };
      return unicode ? null : { code: 117, end };
    }
    case undefined:
      return null;
    default:
      if (/[A-Za-z0-9]/.test(next)) return unicode ? null : { code: next.charCodeAt(0), end };
      return { code: next.codePointAt(0) ?? 0, end: start + 1 + (next.length === 2 ? 2 : 1) };
  }
}

/**
 * A character class `[...]` at `start`. A negated class gets \n added to what it excludes; a positive one that may
 * hold a newline (\s, \W, \D, \p{…}, a range around \n) is guarded by a lookahead on the character it consumes.
 */
function readClass(source: string, start: number, unicode: boolean): Piece | null {
  let i = start + 1;
  const negated = source[i] === '^';
  if (negated) i++;
  let mayHoldNewline = false;
  let previous: number | null = null; // the last single character, for ranges
  let rangePending = false;
  while (i < source.length && source[i] !== ']') {
    let code: number | null = null;
    if (source[i] === '\\') {
      const next = source[i + 1];
      if (next === undefined) return null;
      if ('sWDpP'.includes(next)) {
        mayHoldNewline = true;
        i = next === 'p' || next === 'P' ? skipProperty(source, i, unicode) : i + 2;
        if (i < 0) return null;
      } else if ('wdS'.includes(next)) {
        i += 2;
      } else if (next === 'b') {
        code = 8;
        i += 2;
      } else if (next === '-') {
        code = 45;
        i += 2;
      } else if (next >= '0' && next <= '9') {
        if (next !== '0' || (source[i + 2] >= '0' && source[i + 2] <= '9')) return null; // legacy octal
        code = 0;
        i += 2;
      } else {
        const char = readCharacterEscape(source, i, unicode);
        if (char === null) return null;
        code = char.code;
        i = char.end;
      }
    } else if (source[i] === '-' && previous !== null && !rangePending && source[i + 1] !== ']') {
      rangePending = true;
      i++;
      continue;
    } else {
      code = source.codePointAt(i) ?? 0;
      i += code > 0xffff && unicode ? 2 : 1;
    }
    if (code === null) {
      previous = null;
      rangePending = false;
      continue;
    }
    if (code === NEWLINE) mayHoldNewline = true;
    if (rangePending && previous !== null) {
      if (previous <= NEWLINE && code >= NEWLINE) mayHoldNewline = true;
      previous = null;
      rangePending = false;
    } else previous = code;
  }
  if (i >= source.length) return null;
  const body = source.slice(start, i);
  const end = i + 1;
  if (negated) return { rewritten: `${body}\\n]`, end };
  if (mayHoldNewline) return { rewritten: `(?:(?!\\n)${body}])`, end };
  return { rewritten: `${body}]`, end };
}

function skipProperty(source: string, start: number, unicode: boolean): number {
  if (!unicode) return start + 2;
  const close = source.indexOf('}', start);
  return source[start + 2] === '{' && close !== -1 ? close + 1 : -1;
}

/** Capturing groups in `source`: "(" not followed by "?", or "(?<name>", outside classes and escapes. */
function countCapturingGroups(source: string): number {
  let count = 0;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const char = source[i];
    if (char === '\\') i++;
    else if (inClass) inClass = char !== ']';
    else if (char === '[') inClass = true;
    else if (char === '(') {
      if (source[i + 1] !== '?') count++;
      else if (source[i + 2] === '<' && source[i + 3] !== '=' && source[i + 3] !== '!') count++;
    }
  }
  return count;
}
