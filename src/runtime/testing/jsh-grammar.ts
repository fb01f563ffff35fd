// The part of jsh's grammar StackBlitz's own apps rely on (`npm install && npm run dev`, `cd src`, `ls | grep x`,
// `echo $NAME > file`): simple commands joined by && || ; | &, quoted words, variable expansion and redirects.
// What jsh is reported not to support is refused here with jsh's own message (see webcontainer-guesses.ts); the
// WebContainer double runs what passes with /bin/sh.

import {
  ASSIGNMENT_FAILURE,
  commandNotFound,
  EXPORT_FAILURE,
  GRAMMAR_FAILURE,
  MISSING_COMMANDS,
} from './webcontainer-guesses';

export type JshRefusal = { message: string; exitCode: number };

/** 'as-reported': jsh as its issue tracker describes it; 'posix': everything /bin/sh runs passes. */
export type JshGrammar = 'as-reported' | 'posix';

const RESERVED = new Set(['if', 'then', 'else', 'elif', 'fi', 'for', 'while', 'until', 'do', 'done', 'case', 'esac', 'function', 'select', '!', '{', '}', '[[', ']]']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const REDIRECT = /^\d*(>>?|<)(&\d+)?$/;

/** Why jsh would refuse to run `line` (one line of input), or undefined when the double may run it. */
export function refusalOf(line: string, grammar: JshGrammar = 'as-reported'): JshRefusal | undefined {
  if (grammar === 'posix') return undefined;
  const commands = splitCommands(line);
  if (commands === 'grammar') return GRAMMAR_FAILURE;
  for (const words of commands) {
    const name = words.find((word) => !REDIRECT.test(word));
    if (name === undefined) continue;
    if (ASSIGNMENT.test(name)) return ASSIGNMENT_FAILURE;
    if (name === 'export') return EXPORT_FAILURE;
    if (RESERVED.has(name)) return GRAMMAR_FAILURE;
    if (MISSING_COMMANDS.includes(name)) return commandNotFound(name);
  }
  return undefined;
}

/** The words of each simple command of `line`, or 'grammar' for syntax outside jsh's grammar. */
function splitCommands(line: string): string[][] | 'grammar' {
  const commands: string[][] = [];
  let words: string[] = [];
  let word = '';
  let inWord = false;
  const endWord = () => {
    if (inWord) words.push(word);
    word = '';
    inWord = false;
  };
  const endCommand = () => {
    endWord();
    if (words.length > 0) commands.push(words);
    words = [];
  };
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      if (end === -1) return 'grammar';
      word += line.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (ch === '"') {
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === '\\') j++;
        else if (line[j] === '`' || (line[j] === '$' && line[j + 1] === '(')) return 'grammar';
      }
      if (j >= line.length) return 'grammar';
      word += line.slice(i + 1, j);
      inWord = true;
      i = j;
    } else if (ch === '\\') {
      word += line[i + 1] ?? '';
      inWord = true;
      i++;
    } else if (ch === '`' || ch === '(' || ch === ')' || (ch === '$' && line[i + 1] === '(')) {
      return 'grammar';
    } else if (ch === '<' && line[i + 1] === '<') {
      return 'grammar'; // here-documents
    } else if (ch === '#' && !inWord) {
      break; // a comment runs to the end of the line
    } else if (ch === ';' || ch === '|' || ch === '&' || ch === '\n') {
      // `2>&1` and `>&2` are redirects, not the background operator.
      if (ch === '&' && (word.endsWith('>') || line[i - 1] === '>')) {
        word += ch;
        inWord = true;
        continue;
      }
      endCommand();
      if ((ch === '|' || ch === '&') && line[i + 1] === ch) i++;
    } else if (ch === ' ' || ch === '\t') {
      endWord();
    } else if ((ch === '>' || ch === '<') && inWord && !/^\d+$/.test(word)) {
      endWord(); // `echo hi>out`: the redirect starts a word of its own
      word = ch;
      inWord = true;
    } else {
      word += ch;
      inWord = true;
    }
  }
  endCommand();
  return commands;
}
