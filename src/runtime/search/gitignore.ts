// One .gitignore (or .ignore) file's rules, compiled for a walk: each pattern becomes one regular expression, tested
// against the entry's name when the pattern has no slash, else against its path relative to the file's folder. The
// last rule that matches decides, as in git. A walk never enters an ignored folder, so an entry's parent folders are
// known not to be ignored and only the entry itself is tested (the `ignore` package re-checks every parent of every
// path, which made it most of a 20,000-file walk).

export type RuleVerdict = 'ignored' | 'included' | null;

type Rule = { negative: boolean; dirOnly: boolean; byName: boolean; regex: RegExp };

/** A group of rules without negations tested as one expression per kind (by name or path, folders only or not). */
type Combined = { byName: RegExp | null; byPath: RegExp | null; dirByName: RegExp | null; dirByPath: RegExp | null };

export class GitignoreRules {
  private readonly rules: Rule[] = [];
  private readonly combined: Combined | null;
  private readonly anyByPath: boolean;

  /** Parses the text of an ignore file; `ignoreCase` matches letters regardless of case. */
  constructor(text: string, ignoreCase: boolean) {
    for (const line of text.split(/\r?\n/)) {
      const rule = parseRule(line, ignoreCase);
      if (rule) this.rules.push(rule);
    }
    this.combined = this.rules.some((rule) => rule.negative) ? null : combine(this.rules, ignoreCase);
    this.anyByPath = this.rules.some((rule) => !rule.byName);
  }

  get empty(): boolean {
    return this.rules.length === 0;
  }

  /**
   * What the rules of the ignore file in `base` say about the entry at `path` (absolute) named `name`, its parent
   * folders known not to be ignored.
   */
  match(base: string, path: string, name: string, isDir: boolean): RuleVerdict {
    const relative = this.anyByPath ? path.slice(base === '/' ? 1 : base.length + 1) : '';
    const combined = this.combined;
    if (combined !== null) {
      const hit =
        combined.byName?.test(name) ||
        combined.byPath?.test(relative) ||
        (isDir && (combined.dirByName?.test(name) || combined.dirByPath?.test(relative)));
      return hit ? 'ignored' : null;
    }
    for (let i = this.rules.length - 1; i >= 0; i--) {
      const rule = this.rules[i];
      if (rule.dirOnly && !isDir) continue;
      if (rule.regex.test(rule.byName ? name : relative)) return rule.negative ? 'included' : 'ignored';
    }
    return null;
  }
}

function parseRule(line: string, ignoreCase: boolean): Rule | null {
  let pattern = line;
  if (pattern.startsWith('#')) return null;
  pattern = trimTrailingSpaces(pattern);
  let negative = false;
  if (pattern.startsWith('!')) {
    negative = true;
    pattern = pattern.slice(1);
  }
  let dirOnly = false;
  if (pattern.endsWith('/') && !pattern.endsWith('\\/')) {
    dirOnly = true;
    pattern = pattern.replace(/\/+$/, '');
  }
  if (pattern === '') return null;
  const byName = !pattern.includes('/');
  if (pattern.startsWith('/')) pattern = pattern.slice(1);
  const body = patternBody(pattern);
  if (body === null) return null;
  return { negative, dirOnly, byName, regex: new RegExp(`^(?:${body})$`, ignoreCase ? 'iu' : 'u') };
}

/** Trailing spaces are dropped unless escaped with a backslash. */
function trimTrailingSpaces(pattern: string): string {
  let end = pattern.length;
  while (end > 0 && pattern[end - 1] === ' ') {
    let backslashes = 0;
    for (let i = end - 2; i >= 0 && pattern[i] === '\\'; i--) backslashes++;
    if (backslashes % 2 === 1) break;
    end--;
  }
  return pattern.slice(0, end);
}

/** The regular expression for a glob (without its leading slash): * and ? stay within a segment, ** spans them. */
function patternBody(pattern: string): string | null {
  let out = '';
  let i = 0;
  while (i < pattern.length) {
    const char = pattern[i];
    if (char === '\\') {
      const next = pattern[i + 1];
      if (next === undefined) return null; // a trailing backslash makes the pattern invalid, as in git
      out += escapeRegex(next);
      i += 2;
    } else if (char === '*') {
      let run = i;
      while (pattern[run] === '*') run++;
      const segmentStart = i === 0 || pattern[i - 1] === '/';
      const segmentEnd = run === pattern.length || pattern[run] === '/';
      if (run - i >= 2 && segmentStart && segmentEnd) {
        if (run === pattern.length) out += '.*'; // "a/**": everything inside; "**": everything
        else {
          out += '(?:.*/)?'; // "**/b", "a/**/b": zero or more folders
          run++; // the slash after the globstar is part of it
        }
      } else out += '[^/]*';
      i = run;
    } else if (char === '?') {
      out += '[^/]';
      i++;
    } else if (char === '[') {
      const set = bracket(pattern, i);
      if (set === null) {
        out += '\\[';
        i++;
      } else {
        out += set.regex;
        i = set.end;
      }
    } else {
      out += escapeRegex(char);
      i++;
    }
  }
  return out;
}

const POSIX_CLASSES: Record<string, string> = {
  alnum: 'A-Za-z0-9', alpha: 'A-Za-z', blank: ' \\t', cntrl: '\\x00-\\x1f\\x7f', digit: '0-9', graph: '!-~',
  lower: 'a-z', print: ' -~', punct: '!-\\/:-@\\[-`{-~', space: ' \\t\\n\\r\\f\\v', upper: 'A-Z', xdigit: '0-9A-Fa-f',
};

/** A bracket expression at `start` ("[a-z]", "[!0-9]", "[[:alpha:]]"), never matching "/"; null when not closed. */
function bracket(pattern: string, start: number): { regex: string; end: number } | null {
  let i = start + 1;
  let negated = false;
  if (pattern[i] === '!' || pattern[i] === '^') {
    negated = true;
    i++;
  }
  let members = '';
  let first = true;
  while (i < pattern.length) {
    const char = pattern[i];
    if (char === ']' && !first) {
      if (members === '') return null;
      return { regex: negated ? `[^/${members}]` : `(?:(?!/)[${members}])`, end: i + 1 };
    }
    first = false;
    if (char === '[' && pattern[i + 1] === ':') {
      const close = pattern.indexOf(':]', i + 2);
      const name = close === -1 ? '' : pattern.slice(i + 2, close);
      if (POSIX_CLASSES[name] === undefined) return null;
      members += POSIX_CLASSES[name];
      i = close + 2;
    } else if (char === '\\') {
      const next = pattern[i + 1];
      if (next === undefined) return null;
      members += escapeClassMember(next);
      i += 2;
    } else if (char === '-' && members !== '' && pattern[i + 1] !== ']') {
      members += '-';
      i++;
    } else {
      members += escapeClassMember(char);
      i++;
    }
  }
  return null;
}

function combine(rules: Rule[], ignoreCase: boolean): Combined {
  const join = (picked: Rule[]) =>
    picked.length === 0 ? null : new RegExp(picked.map((rule) => rule.regex.source).join('|'), ignoreCase ? 'iu' : 'u');
  return {
    byName: join(rules.filter((rule) => rule.byName && !rule.dirOnly)),
    byPath: join(rules.filter((rule) => !rule.byName && !rule.dirOnly)),
    dirByName: join(rules.filter((rule) => rule.byName && rule.dirOnly)),
    dirByPath: join(rules.filter((rule) => !rule.byName && rule.dirOnly)),
  };
}

function escapeRegex(char: string): string {
  return /[\\^$.|?*+()[\]{}/]/.test(char) ? `\\${char}` : char;
}

function escapeClassMember(char: string): string {
  return /[\\\]\[^-]/.test(char) ? `\\${char}` : char;
}
