// The shell's `grep -r` / `grep -R`: GNU grep's common options on Conch's search engine, reading the in-memory file
// system directly. Files are searched in path order (GNU grep takes them in the order the directory lists them).
// Without -r, and for options or pattern syntax it does not handle, the command goes to just-bash's own grep.

import type { Command, ExecResult } from 'just-bash';
import { GitignoreRules } from '../../search/gitignore';
import type { MemoryTree } from '../memory-tree';
import { CommandOutput } from './command-output';
import { countValue, parseOptions, patternsAndPaths, type OptionSpec } from './command-options';
import { compilePattern, type CompiledPattern } from './compiled-pattern';
import { engineCommand, exitStatus } from './engine-command';
import { LinePrinter, type PrintMode } from './line-printer';
import { operandFiles, searchFiles } from './operand-files';
import { GREP_WORD, translatePosix } from './posix-regex';
import { escapeLiteral, translateRegex } from './rust-regex';
import { decodeForSearch } from './search-input';
import { Unsupported } from './unsupported';

const OPTIONS: OptionSpec[] = [
  { key: 'extended', short: 'E', long: ['extended-regexp'], takesValue: false },
  { key: 'fixed', short: 'F', long: ['fixed-strings'], takesValue: false },
  { key: 'basic', short: 'G', long: ['basic-regexp'], takesValue: false },
  { key: 'perl', short: 'P', long: ['perl-regexp'], takesValue: false },
  { key: 'regexp', short: 'e', long: ['regexp'], takesValue: true },
  { key: 'ignore-case', short: 'i', long: ['ignore-case'], takesValue: false },
  { key: 'ignore-case', short: 'y', takesValue: false },
  { key: 'no-ignore-case', long: ['no-ignore-case'], takesValue: false },
  { key: 'word', short: 'w', long: ['word-regexp'], takesValue: false },
  { key: 'line', short: 'x', long: ['line-regexp'], takesValue: false },
  { key: 'invert', short: 'v', long: ['invert-match'], takesValue: false },
  { key: 'count', short: 'c', long: ['count'], takesValue: false },
  { key: 'files-with-matches', short: 'l', long: ['files-with-matches'], takesValue: false },
  { key: 'files-without-match', short: 'L', long: ['files-without-match'], takesValue: false },
  { key: 'only-matching', short: 'o', long: ['only-matching'], takesValue: false },
  { key: 'quiet', short: 'q', long: ['quiet', 'silent'], takesValue: false },
  { key: 'no-messages', short: 's', long: ['no-messages'], takesValue: false },
  { key: 'max-count', short: 'm', long: ['max-count'], takesValue: true },
  { key: 'line-number', short: 'n', long: ['line-number'], takesValue: false },
  { key: 'with-filename', short: 'H', long: ['with-filename'], takesValue: false },
  { key: 'no-filename', short: 'h', long: ['no-filename'], takesValue: false },
  { key: 'after', short: 'A', long: ['after-context'], takesValue: true },
  { key: 'before', short: 'B', long: ['before-context'], takesValue: true },
  { key: 'context', short: 'C', long: ['context'], takesValue: true },
  { key: 'recursive', short: 'r', long: ['recursive'], takesValue: false },
  { key: 'dereference-recursive', short: 'R', long: ['dereference-recursive'], takesValue: false },
  { key: 'include', long: ['include'], takesValue: true },
  { key: 'exclude', long: ['exclude'], takesValue: true },
  { key: 'exclude-dir', long: ['exclude-dir'], takesValue: true },
  { key: 'text', short: 'a', long: ['text'], takesValue: false },
  { key: 'skip-binary', short: 'I', takesValue: false },
  { key: 'binary-files', long: ['binary-files'], takesValue: true },
  { key: 'accepted', long: ['line-buffered'], takesValue: false },
];

type GrepOptions = {
  patterns: string[];
  operands: string[];
  syntax: 'basic' | 'extended' | 'fixed' | 'perl';
  ignoreCase: boolean;
  word: boolean;
  line: boolean;
  invert: boolean;
  mode: PrintMode;
  noMessages: boolean;
  maxCount: number;
  lineNumbers: boolean;
  withFilename?: boolean;
  before: number;
  after: number;
  dereference: boolean;
  /** --include and --exclude in the order given (the last one matching a file decides). */
  fileGlobs: { include: boolean; rules: GitignoreRules }[];
  excludeDirs: GitignoreRules[];
  binary: 'binary' | 'text' | 'without-match';
};

/** grep as a just-bash command over `tree()`, the file system's current index (null: fall back). */
export function createGrepCommand(tree: () => Promise<MemoryTree | null>): Command {
  return engineCommand('grep', tree, (args) => {
    const options = readOptions(args);
    return options && ((source, ctx) => runGrep(options, source, ctx.cwd));
  });
}

/** The options, or null when this is not a recursive grep. */
function readOptions(args: string[]): GrepOptions | null {
  const { options, operands } = parseOptions(normalizeArgs(args), OPTIONS);
  const grep: GrepOptions = {
    patterns: [], operands: [], syntax: 'basic', ignoreCase: false, word: false, line: false, invert: false,
    mode: 'lines', noMessages: false, maxCount: Infinity, lineNumbers: false, before: 0, after: 0, dereference: false,
    fileGlobs: [], excludeDirs: [], binary: 'binary',
  };
  let recursive = false;
  const modes = new Set<PrintMode>();
  for (const option of options) {
    switch (option.key) {
      case 'extended': grep.syntax = 'extended'; break;
      case 'fixed': grep.syntax = 'fixed'; break;
      case 'basic': grep.syntax = 'basic'; break;
      case 'perl': grep.syntax = 'perl'; break;
      case 'regexp': grep.patterns.push(option.value); break;
      case 'ignore-case': grep.ignoreCase = true; break;
      case 'no-ignore-case': grep.ignoreCase = false; break;
      case 'word': grep.word = true; break;
      case 'line': grep.line = true; break;
      case 'invert': grep.invert = true; break;
      case 'count': modes.add('count'); break;
      case 'files-with-matches': modes.add('files-with-matches'); break;
      case 'files-without-match': modes.add('files-without-match'); break;
      case 'only-matching': modes.add('only-matching'); break;
      case 'quiet': modes.add('quiet'); break;
      case 'no-messages': grep.noMessages = true; break;
      case 'max-count': grep.maxCount = countValue(option); break;
      case 'line-number': grep.lineNumbers = true; break;
      case 'with-filename': grep.withFilename = true; break;
      case 'no-filename': grep.withFilename = false; break;
      case 'after': grep.after = countValue(option); break;
      case 'before': grep.before = countValue(option); break;
      case 'context': grep.before = grep.after = countValue(option); break;
      case 'recursive': recursive = true; break;
      case 'dereference-recursive': recursive = true; grep.dereference = true; break;
      case 'include': grep.fileGlobs.push({ include: true, rules: nameGlob(option.value) }); break;
      case 'exclude': grep.fileGlobs.push({ include: false, rules: nameGlob(option.value) }); break;
      case 'exclude-dir': grep.excludeDirs.push(nameGlob(option.value)); break;
      case 'text': grep.binary = 'text'; break;
      case 'skip-binary': grep.binary = 'without-match'; break;
      case 'binary-files':
        if (option.value !== 'binary' && option.value !== 'text' && option.value !== 'without-match') throw new Unsupported(`--binary-files=${option.value}`);
        grep.binary = option.value;
        break;
      default: break;
    }
  }
  if (!recursive) return null;
  // GNU grep: -q over -l/-L over -c over -o.
  for (const mode of ['quiet', 'files-with-matches', 'files-without-match', 'count', 'only-matching'] as const) {
    if (modes.has(mode)) {
      grep.mode = mode;
      break;
    }
  }
  const { patterns, paths } = patternsAndPaths('grep', grep.patterns, operands);
  // A pattern holding newlines is one pattern per line.
  grep.patterns = patterns.flatMap((pattern) => pattern.split('\n'));
  grep.operands = paths;
  return grep;
}

/** Drops colour options that change nothing without a terminal (and the optional-value form the parser lacks). */
function normalizeArgs(args: string[]): string[] {
  const kept: string[] = [];
  for (const [i, arg] of args.entries()) {
    if (arg === '--') return [...kept, ...args.slice(i)];
    const colour = /^--colou?r(=(.*))?$/.exec(arg);
    if (colour) {
      if (colour[2] !== undefined && colour[2] !== 'never' && colour[2] !== 'auto') throw new Unsupported('colours');
      continue;
    }
    if (/^-\d+$/.test(arg)) kept.push(`--context=${arg.slice(1)}`);
    else kept.push(arg);
  }
  return kept;
}

function nameGlob(glob: string): GitignoreRules {
  if (glob.includes('/')) throw new Unsupported('a --include/--exclude glob with "/"');
  return new GitignoreRules(glob, false);
}

function buildMatcher(grep: GrepOptions): CompiledPattern {
  let groups = 0;
  const sources = grep.patterns.map((pattern) => {
    switch (grep.syntax) {
      case 'fixed':
        return escapeLiteral(pattern);
      case 'perl': {
        const translated = translateRegex(pattern, 'pcre');
        if (translated.ignoreCase) throw new Unsupported('(?i) in -P');
        return translated.source;
      }
      default: {
        const translated = translatePosix(pattern, grep.syntax === 'extended', groups);
        groups += translated.groups;
        return translated.source;
      }
    }
  });
  // -x wins over -w, as in GNU grep.
  const wordClass = grep.word && !grep.line ? `[${GREP_WORD}]` : undefined;
  return compilePattern(sources, { line: grep.line, wordClass, ignoreCase: grep.ignoreCase });
}

function runGrep(grep: GrepOptions, tree: MemoryTree, cwd: string): ExecResult {
  const { matcher, everyMatch } = buildMatcher(grep);
  const out = new CommandOutput();
  const operands = grep.operands.length === 0 ? [''] : grep.operands;
  const wanted = (name: string, isDir: boolean): boolean =>
    isDir ? !grep.excludeDirs.some((rules) => rules.match('/', `/${name}`, name, true) === 'ignored') : fileWanted(grep, name);
  const { files, missing, namedByDefault } = operandFiles(tree, cwd, operands, {
    wanted,
    walk: () => ({
      skipFolders: new Set(),
      skipHidden: false,
      ignoreFiles: [],
      precedence: 'nearest',
      ignoreCase: false,
      ancestors: false,
      maxDepth: Infinity,
      skipSymlinks: !grep.dereference,
      override: (_path, name, isDir) => (wanted(name, isDir) ? null : 'ignored'),
    }),
  });
  let errors = missing.map((given) => `grep: ${given}: No such file or directory\n`).join('');
  const printer = new LinePrinter(out, matcher, everyMatch, {
    mode: grep.mode,
    invert: grep.invert,
    withFilename: grep.withFilename ?? namedByDefault,
    lineNumbers: grep.lineNumbers,
    before: grep.before,
    after: grep.after,
    maxCount: grep.maxCount,
    countZeros: true,
  });
  const selected = searchFiles(tree, files, grep.mode === 'quiet', (target, bytes) => {
    const decoded = decodeForSearch(bytes, false);
    const hasNul = decoded.text.includes('\0');
    const binary = grep.binary !== 'text' && (decoded.invalid || hasNul);
    if (hasNul && grep.binary === 'without-match') return false; // -I goes by NUL bytes alone
    const binaryMatch = binary ? () => (errors += `grep: ${target.name}: binary file matches\n`) : undefined;
    // In a file it takes for binary, GNU grep ends lines at NUL bytes too.
    const text = binary && hasNul ? decoded.text.replaceAll('\0', '\n') : decoded.text;
    const file = { name: target.name, text, holdBadLines: binary && !hasNul };
    return printer.file(file, binaryMatch) > 0;
  });
  const stderr = grep.noMessages ? errors.replace(/^grep: .*: No such file or directory\n/gm, '') : errors;
  const exitCode = exitStatus(selected, missing.length > 0, grep.mode === 'quiet');
  return { ...out.stdout(), stderr, exitCode };
}

/** --include/--exclude on a file's name: the last glob matching it decides; none matching keeps it unless the first was --include. */
function fileWanted(grep: GrepOptions, name: string): boolean {
  for (let i = grep.fileGlobs.length - 1; i >= 0; i--) {
    const { include, rules } = grep.fileGlobs[i];
    if (rules.match('/', `/${name}`, name, false) === 'ignored') return include;
  }
  return grep.fileGlobs.length === 0 || !grep.fileGlobs[0].include;
}
