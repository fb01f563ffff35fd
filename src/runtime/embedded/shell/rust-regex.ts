// ripgrep's pattern syntax (Rust's regex crate, Unicode-aware) and grep -P's (PCRE) as JavaScript regular expressions
// in unicode mode, tested line by line. What JavaScript cannot say the same way throws Unsupported.

import { ESCAPES_CLASS } from './search-input';
import { Unsupported } from './unsupported';

export type RegexDialect = 'rust' | 'pcre';

/** A word character as Rust's regex crate defines it (Unicode); PCRE's \w is JavaScript's own (ASCII). */
const RUST_WORD = '\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\p{Join_Control}';

/** Characters that must be escaped to be literal in a JavaScript unicode-mode pattern (outside a class). */
const JS_SYNTAX = new Set('^$\\.*+?()[]{}|/'.split(''));

const POSIX_CLASSES: Record<string, string> = {
  alnum: '0-9A-Za-z', alpha: 'A-Za-z', ascii: '\\x00-\\x7F', blank: '\\t ', cntrl: '\\x00-\\x1F\\x7F', digit: '0-9',
  graph: '!-~', lower: 'a-z', print: ' -~', punct: '!-\\/:-@\\[-`{-~', space: '\\t\\n\\v\\f\\r ', upper: 'A-Z',
  word: '0-9A-Za-z_', xdigit: '0-9A-Fa-f',
};

export type Translated = { source: string; ignoreCase: boolean };

/** The JavaScript form of `pattern`; a leading (?i) becomes ignoreCase. */
export function translateRegex(pattern: string, dialect: RegexDialect): Translated {
  let ignoreCase = false;
  let rest = pattern;
  const flags = /^\(\?([a-zA-Z]+)\)/.exec(rest);
  if (flags) {
    if (flags[1] !== 'i') throw new Unsupported(`inline flags (?${flags[1]})`);
    ignoreCase = true;
    rest = rest.slice(flags[0].length);
  }
  return { source: new Translator(rest, dialect).run(), ignoreCase };
}

class Translator {
  private i = 0;
  private out = '';

  constructor(
    private readonly pattern: string,
    private readonly dialect: RegexDialect,
  ) {}

  run(): string {
    const p = this.pattern;
    while (this.i < p.length) {
      const char = p[this.i];
      switch (char) {
        case '\\':
          this.out += this.escape(false);
          break;
        case '[':
          this.out += this.characterClass();
          break;
        case '(':
          this.out += this.groupOpening();
          break;
        case '.':
          // Both dialects' dot matches \r, which JavaScript's does not, and never an invalid byte.
          this.out += `[^\\n${ESCAPES_CLASS}]`;
          this.i++;
          break;
        case '{':
          this.out += this.repetition();
          break;
        case '}':
        case ']':
          this.out += `\\${char}`; // literal in Rust and PCRE, a syntax error alone in unicode mode
          this.i++;
          break;
        case '*':
        case '+':
        case '?':
          if (p[this.i + 1] === '+') throw new Unsupported('possessive quantifiers');
          this.out += char;
          this.i++;
          break;
        default:
          this.out += char === '/' ? '\\/' : char;
          this.i += char.length;
      }
    }
    return this.out;
  }

  private escape(inClass: boolean): string {
    const p = this.pattern;
    const next = p[this.i + 1];
    if (next === undefined) throw new Unsupported('a trailing backslash');
    this.i += 2;
    const rust = this.dialect === 'rust';
    switch (next) {
      case 'd':
        return rust ? '\\p{Nd}' : '\\d';
      case 'D':
        if (inClass && rust) throw new Unsupported('\\D inside a class');
        return rust ? `[^\\p{Nd}${ESCAPES_CLASS}]` : `[^\\d${ESCAPES_CLASS}]`;
      case 'w':
        return rust ? (inClass ? RUST_WORD : `[${RUST_WORD}]`) : '\\w';
      case 'W':
        if (inClass && rust) throw new Unsupported('\\W inside a class');
        return rust ? `[^${RUST_WORD}${ESCAPES_CLASS}]` : `[^\\w${ESCAPES_CLASS}]`;
      case 's':
        return rust ? '\\p{White_Space}' : '\\s';
      case 'S':
        if (inClass && rust) throw new Unsupported('\\S inside a class');
        return rust ? `[^\\p{White_Space}${ESCAPES_CLASS}]` : `[^\\s${ESCAPES_CLASS}]`;
      case 'h':
        if (rust) throw new Unsupported('\\h');
        return inClass ? '\\t ' : '[\\t ]';
      case 'b':
      case 'B':
        if (inClass) throw new Unsupported(`\\${next} inside a class`);
        if (!rust) return `\\${next}`;
        return next === 'b'
          ? `(?:(?<=[${RUST_WORD}])(?![${RUST_WORD}])|(?<![${RUST_WORD}])(?=[${RUST_WORD}]))`
          : `(?:(?<=[${RUST_WORD}])(?=[${RUST_WORD}])|(?<![${RUST_WORD}])(?![${RUST_WORD}]))`;
      case 'A':
        return '^';
      case 'z':
      case 'Z':
        return '$';
      case 'n':
      case 't':
      case 'r':
      case 'f':
      case 'v':
        return `\\${next}`;
      case 'a':
        return '\\x07';
      case 'e':
        if (rust) throw new Unsupported('\\e');
        return '\\x1B';
      case 'x':
        return this.codePoint(/^\{([0-9A-Fa-f]{1,6})\}|^([0-9A-Fa-f]{2})/);
      case 'u':
        if (!rust) throw new Unsupported('\\u in PCRE');
        return this.codePoint(/^\{([0-9A-Fa-f]{1,6})\}|^([0-9A-Fa-f]{4})/);
      case 'U':
        if (!rust) throw new Unsupported('\\U in PCRE');
        return this.codePoint(/^\{([0-9A-Fa-f]{1,8})\}|^([0-9A-Fa-f]{8})/);
      case 'p':
      case 'P':
        return this.property(next);
      default:
        if (/[0-9]/.test(next)) {
          if (rust || inClass) throw new Unsupported(`\\${next}`);
          let digits = next;
          while (/[0-9]/.test(p[this.i] ?? '')) digits += p[this.i++];
          if (digits.startsWith('0')) throw new Unsupported('octal escapes');
          return `\\${digits}`; // a backreference (PCRE)
        }
        if (/[A-Za-z]/.test(next)) throw new Unsupported(`\\${next}`);
        return literal(next, inClass);
    }
  }

  private codePoint(shape: RegExp): string {
    const found = shape.exec(this.pattern.slice(this.i));
    if (!found) throw new Unsupported('a malformed code point escape');
    this.i += found[0].length;
    const code = parseInt(found[1] ?? found[2], 16);
    if (code > 0x10ffff) throw new Unsupported('a code point beyond Unicode');
    return `\\u{${code.toString(16)}}`;
  }

  private property(letter: 'p' | 'P'): string {
    const p = this.pattern;
    let name: string;
    if (p[this.i] === '{') {
      const close = p.indexOf('}', this.i);
      if (close === -1) throw new Unsupported('an unclosed \\p{');
      name = p.slice(this.i + 1, close);
      this.i = close + 1;
    } else {
      name = p[this.i] ?? '';
      this.i++;
    }
    for (const candidate of [name, `Script=${name}`]) {
      const source = `\\${letter}{${candidate}}`;
      try {
        new RegExp(source, 'u');
        return letter === 'P' ? `[^\\p{${candidate}}${ESCAPES_CLASS}]` : source;
      } catch {
        // try the next spelling
      }
    }
    throw new Unsupported(`the Unicode class ${name}`);
  }

  private characterClass(): string {
    const p = this.pattern;
    this.i++;
    let out = '[';
    if (p[this.i] === '^') {
      out += '^';
      this.i++;
    }
    let first = true;
    while (this.i < p.length) {
      const char = p[this.i];
      if (char === ']' && !first) {
        this.i++;
        return out.startsWith('[^') ? `${out}${ESCAPES_CLASS}]` : `${out}]`;
      }
      first = false;
      if (char === '[') {
        const posix = /^\[:(\^?)([a-z]+):\]/.exec(p.slice(this.i));
        if (!posix || posix[1] || POSIX_CLASSES[posix[2]] === undefined) throw new Unsupported('nested classes or set operations');
        out += POSIX_CLASSES[posix[2]];
        this.i += posix[0].length;
      } else if (char === '\\') {
        out += this.escape(true);
      } else if ((char === '&' && p[this.i + 1] === '&') || (char === '~' && p[this.i + 1] === '~') || (char === '-' && p[this.i + 1] === '-')) {
        throw new Unsupported('class set operations');
      } else if (char === '-' && out !== '[' && out !== '[^' && p[this.i + 1] !== ']') {
        out += '-';
        this.i++;
      } else {
        const code = p.codePointAt(this.i) ?? 0;
        const whole = String.fromCodePoint(code);
        out += literal(whole, true);
        this.i += whole.length;
      }
    }
    throw new Unsupported('an unclosed class');
  }

  private groupOpening(): string {
    const rest = this.pattern.slice(this.i);
    const named = /^\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(rest);
    if (named) {
      this.i += named[0].length;
      return `(?<${named[1]}>`;
    }
    if (rest.startsWith('(?:')) {
      this.i += 3;
      return '(?:';
    }
    const look = /^\(\?(=|!|<=|<!)/.exec(rest);
    if (look && this.dialect === 'pcre') {
      this.i += look[0].length;
      return look[0];
    }
    if (rest.startsWith('(?')) throw new Unsupported(`the group ${rest.slice(0, 4)}`);
    this.i++;
    return '(';
  }

  private repetition(): string {
    const found = /^\{(\d+)(,(\d*))?\}/.exec(this.pattern.slice(this.i));
    if (!found) {
      if (this.dialect === 'rust') throw new Unsupported('a malformed repetition');
      this.i++;
      return '\\{'; // PCRE reads a brace that starts no repetition as itself
    }
    this.i += found[0].length;
    if (this.pattern[this.i] === '+') throw new Unsupported('possessive quantifiers');
    return found[0];
  }
}

function literal(char: string, inClass: boolean): string {
  if (inClass) return /[\\\]\[^-]/.test(char) ? `\\${char}` : char;
  return JS_SYNTAX.has(char) ? `\\${char}` : char;
}

/** JavaScript source matching `text` literally. */
export function escapeLiteral(text: string): string {
  let out = '';
  for (const char of text) out += literal(char, false);
  return out;
}
