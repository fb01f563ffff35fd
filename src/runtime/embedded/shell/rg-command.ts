// The shell's `rg`: ripgrep's common options on Conch's search engine, reading the in-memory file system directly.
// Output is ripgrep's when stdout is not a terminal (no heading, no colours, line numbers only with -n), with files
// in path order (what `rg --sort path` prints; ripgrep's own order varies from run to run). Options and pattern
// syntax it does not handle hand the whole command to just-bash's rg.

import type { Command, ExecResult } from 'just-bash';
import type { MemoryTree } from '../memory-tree';
import { GitignoreRules } from '../../search/gitignore';
import type { WalkPolicy } from '../../search/tree-walk';
import { CommandOutput } from './command-output';
import { countValue, parseOptions, patternsAndPaths, type OptionSpec } from './command-options';
import { compilePattern, type CompiledPattern } from './compiled-pattern';
import { engineCommand, exitStatus } from './engine-command';
import { FILE_TYPES } from './file-types';
import { LinePrinter, type PrintMode } from './line-printer';
import { operandFiles, searchFiles } from './operand-files';
import { escapeLiteral, translateRegex } from './rust-regex';
import { Unsupported } from './unsupported';
import { byteOffset, decodeForSearch, stdinBytes } from './search-input';

const OPTIONS: OptionSpec[] = [
  { key: 'regexp', short: 'e', long: ['regexp'], takesValue: true },
  { key: 'fixed', short: 'F', long: ['fixed-strings'], takesValue: false },
  { key: 'ignore-case', short: 'i', long: ['ignore-case'], takesValue: false },
  { key: 'case-sensitive', short: 's', long: ['case-sensitive'], takesValue: false },
  { key: 'smart-case', short: 'S', long: ['smart-case'], takesValue: false },
  { key: 'word', short: 'w', long: ['word-regexp'], takesValue: false },
  { key: 'line', short: 'x', long: ['line-regexp'], takesValue: false },
  { key: 'invert', short: 'v', long: ['invert-match'], takesValue: false },
  { key: 'line-number', short: 'n', long: ['line-number'], takesValue: false },
  { key: 'no-line-number', short: 'N', long: ['no-line-number'], takesValue: false },
  { key: 'with-filename', short: 'H', long: ['with-filename'], takesValue: false },
  { key: 'no-filename', short: 'I', long: ['no-filename'], takesValue: false },
  { key: 'count', short: 'c', long: ['count'], takesValue: false },
  { key: 'count-matches', long: ['count-matches'], takesValue: false },
  { key: 'files-with-matches', short: 'l', long: ['files-with-matches'], takesValue: false },
  { key: 'files-without-match', long: ['files-without-match'], takesValue: false },
  { key: 'files', long: ['files'], takesValue: false },
  { key: 'only-matching', short: 'o', long: ['only-matching'], takesValue: false },
  { key: 'quiet', short: 'q', long: ['quiet'], takesValue: false },
  { key: 'max-count', short: 'm', long: ['max-count'], takesValue: true },
  { key: 'after', short: 'A', long: ['after-context'], takesValue: true },
  { key: 'before', short: 'B', long: ['before-context'], takesValue: true },
  { key: 'context', short: 'C', long: ['context'], takesValue: true },
  { key: 'glob', short: 'g', long: ['glob'], takesValue: true },
  { key: 'iglob', long: ['iglob'], takesValue: true },
  { key: 'glob-case-insensitive', long: ['glob-case-insensitive'], takesValue: false },
  { key: 'type', short: 't', long: ['type'], takesValue: true },
  { key: 'type-not', short: 'T', long: ['type-not'], takesValue: true },
  { key: 'hidden', short: '.', long: ['hidden'], takesValue: false },
  { key: 'no-ignore', long: ['no-ignore'], takesValue: false },
  { key: 'no-ignore-vcs', long: ['no-ignore-vcs'], takesValue: false },
  { key: 'unrestricted', short: 'u', long: ['unrestricted'], takesValue: false },
  { key: 'max-depth', short: 'd', long: ['max-depth', 'maxdepth'], takesValue: true },
  { key: 'text', short: 'a', long: ['text'], takesValue: false },
  { key: 'no-messages', long: ['no-messages'], takesValue: false },
  // Accepted as they change nothing here: no colours or heading without a terminal, files already in path order,
  // one thread.
  { key: 'accepted', long: ['no-heading', 'sort-files', 'no-config'], takesValue: false },
  { key: 'color', long: ['color', 'colour'], takesValue: true },
  { key: 'sort', long: ['sort'], takesValue: true },
  { key: 'threads', short: 'j', long: ['threads'], takesValue: true },
];

type RgOptions = {
  patterns: string[];
  paths: string[];
  fixed: boolean;
  caseMode: 'sensitive' | 'insensitive' | 'smart';
  word: boolean;
  line: boolean;
  invert: boolean;
  lineNumbers?: boolean;
  withFilename?: boolean;
  mode: PrintMode | 'files';
  maxCount: number;
  before: number;
  after: number;
  globs: { glob: string; ignoreCase: boolean }[];
  globCaseInsensitive: boolean;
  types: string[];
  typesNot: string[];
  hidden: boolean;
  noIgnore: boolean;
  noIgnoreVcs: boolean;
  maxDepth: number;
  text: boolean;
  noMessages: boolean;
};

/** ripgrep as a just-bash command over `tree()`, the file system's current index (null: fall back). */
export function createRgCommand(tree: () => Promise<MemoryTree | null>): Command {
  return engineCommand('rg', tree, (args) => {
    const options = readOptions(args);
    return (source, ctx) => runRg(options, source, ctx.cwd, stdinBytes(ctx.stdin));
  });
}

function readOptions(args: string[]): RgOptions {
  const { options, operands } = parseOptions(args, OPTIONS);
  const rg: RgOptions = {
    patterns: [], paths: [], fixed: false, caseMode: 'sensitive', word: false, line: false, invert: false,
    mode: 'lines', maxCount: Infinity, before: 0, after: 0, globs: [], globCaseInsensitive: false, types: [],
    typesNot: [], hidden: false, noIgnore: false, noIgnoreVcs: false, maxDepth: Infinity, text: false, noMessages: false,
  };
  let count = false;
  let only = false;
  let unrestricted = 0;
  for (const option of options) {
    switch (option.key) {
      case 'regexp': rg.patterns.push(option.value); break;
      case 'fixed': rg.fixed = true; break;
      case 'ignore-case': rg.caseMode = 'insensitive'; break;
      case 'case-sensitive': rg.caseMode = 'sensitive'; break;
      case 'smart-case': rg.caseMode = 'smart'; break;
      case 'word': rg.word = true; break;
      case 'line': rg.line = true; break;
      case 'invert': rg.invert = true; break;
      case 'line-number': rg.lineNumbers = true; break;
      case 'no-line-number': rg.lineNumbers = false; break;
      case 'with-filename': rg.withFilename = true; break;
      case 'no-filename': rg.withFilename = false; break;
      case 'count': count = true; break;
      case 'count-matches': rg.mode = 'count-matches'; break;
      case 'files-with-matches': rg.mode = 'files-with-matches'; break;
      case 'files-without-match': rg.mode = 'files-without-match'; break;
      case 'files': rg.mode = 'files'; break;
      case 'only-matching': only = true; break;
      case 'quiet': rg.mode = 'quiet'; break;
      case 'max-count': rg.maxCount = countValue(option); break;
      case 'after': rg.after = countValue(option); break;
      case 'before': rg.before = countValue(option); break;
      case 'context': rg.before = rg.after = countValue(option); break;
      case 'glob': rg.globs.push({ glob: option.value, ignoreCase: false }); break;
      case 'iglob': rg.globs.push({ glob: option.value, ignoreCase: true }); break;
      case 'glob-case-insensitive': rg.globCaseInsensitive = true; break;
      case 'type': rg.types.push(option.value); break;
      case 'type-not': rg.typesNot.push(option.value); break;
      case 'hidden': rg.hidden = true; break;
      case 'no-ignore': rg.noIgnore = true; break;
      case 'no-ignore-vcs': rg.noIgnoreVcs = true; break;
      case 'unrestricted': unrestricted++; break;
      case 'max-depth': rg.maxDepth = countValue(option); break;
      case 'text': rg.text = true; break;
      case 'no-messages': rg.noMessages = true; break;
      case 'color': if (option.value !== 'never' && option.value !== 'auto') throw new Unsupported('colours'); break;
      case 'sort': if (option.value !== 'path' && option.value !== 'none') throw new Unsupported(`--sort ${option.value}`); break;
      default: break;
    }
  }
  if (unrestricted >= 1) rg.noIgnore = true;
  if (unrestricted >= 2) rg.hidden = true;
  if (unrestricted >= 3) rg.text = true;
  if (rg.mode === 'lines' && count) rg.mode = only ? 'count-matches' : 'count';
  else if (rg.mode === 'lines' && only) rg.mode = 'only-matching';
  if (rg.mode === 'only-matching' && (rg.word || rg.invert)) throw new Unsupported('-o with -w or -v');
  for (const type of [...rg.types, ...rg.typesNot]) if (!FILE_TYPES[type]) throw new Unsupported(`the file type ${type}`);
  const { patterns, paths } = patternsAndPaths('rg', rg.patterns, operands, rg.mode !== 'files');
  rg.patterns = patterns;
  rg.paths = paths;
  return rg;
}

function buildMatcher(rg: RgOptions): CompiledPattern {
  let ignoreCase = rg.caseMode === 'insensitive';
  if (rg.caseMode === 'smart') ignoreCase = !rg.patterns.some((pattern) => /\p{Lu}/u.test(pattern.replace(/\\./g, '')));
  const sources = rg.patterns.map((pattern) => {
    if (rg.fixed) return escapeLiteral(pattern);
    const translated = translateRegex(pattern, 'rust');
    if (translated.ignoreCase) ignoreCase = true;
    return translated.source;
  });
  const wordClass = rg.word ? '[\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\p{Join_Control}]' : undefined;
  return compilePattern(sources, { line: rg.line, wordClass, ignoreCase });
}

function runRg(rg: RgOptions, tree: MemoryTree, cwd: string, stdin: Uint8Array): ExecResult {
  const out = new CommandOutput();
  const searchStdin = rg.paths.length === 0 && stdin.length > 0 && rg.mode !== 'files';
  const paths = rg.paths.length === 0 ? (searchStdin ? [] : ['']) : rg.paths;
  const { files, missing, namedByDefault } = operandFiles(tree, cwd, paths, { walk: () => walkPolicy(rg, cwd) });
  const errors = missing.map((given) => `${given}: No such file or directory (os error 2)\n`).join('');
  if (rg.mode === 'files') {
    for (const file of files) out.write(`${file.name}\n`);
    return finish(out, errors, files.length > 0, rg);
  }
  const { matcher, everyMatch } = buildMatcher(rg);
  const withFilename = rg.withFilename ?? namedByDefault;
  const printer = new LinePrinter(out, matcher, everyMatch, {
    mode: rg.mode,
    invert: rg.invert,
    withFilename,
    lineNumbers: rg.lineNumbers ?? false,
    before: rg.before,
    after: rg.after,
    maxCount: rg.maxCount,
    countZeros: false,
  });
  const search = (name: string, bytes: Uint8Array, explicit: boolean): boolean => {
    const { text } = decodeForSearch(bytes, true);
    const nul = rg.text ? -1 : text.indexOf('\0'); // on the text: a NUL byte is a NUL character, and this is faster
    if (nul !== -1 && !explicit) return false; // a binary file met while walking is skipped, as ripgrep does
    const binaryMatch = nul === -1 ? undefined : () => {
      const offset = byteOffset(text, nul) + (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0);
      out.write(`${withFilename ? `${name}: ` : ''}binary file matches (found "\\0" byte around offset ${offset})\n`);
    };
    return printer.file({ name, text }, binaryMatch) > 0;
  };
  // stdin is searched only without paths, when there are no files.
  const matched = searchStdin
    ? search('<stdin>', stdin, true)
    : searchFiles(tree, files, rg.mode === 'quiet', (file, bytes) => search(file.name, bytes, file.explicit));
  return finish(out, errors, matched, rg);
}

function finish(out: CommandOutput, errors: string, found: boolean, rg: RgOptions): ExecResult {
  const stderr = rg.noMessages ? '' : errors;
  const exitCode = exitStatus(found, errors !== '', rg.mode === 'quiet');
  return { ...out.stdout(), stderr, exitCode };
}

function walkPolicy(rg: RgOptions, cwd: string): WalkPolicy {
  const overrides = rg.globs.length === 0 ? null : globOverrides(rg);
  const anyWhitelist = rg.globs.some(({ glob }) => !glob.startsWith('!'));
  const typeMatch = (names: string[]) => new GitignoreRules(names.flatMap((type) => FILE_TYPES[type]).join('\n'), false);
  const wanted = rg.types.length > 0 ? typeMatch(rg.types) : null;
  const unwanted = rg.typesNot.length > 0 ? typeMatch(rg.typesNot) : null;
  return {
    skipFolders: new Set(),
    skipHidden: !rg.hidden,
    ignoreFiles: rg.noIgnore
      ? []
      : [
          { name: '.rgignore', needsRepo: false },
          { name: '.ignore', needsRepo: false },
          ...(rg.noIgnoreVcs ? [] : [{ name: '.gitignore', needsRepo: true }]),
        ],
    precedence: 'nearest',
    ignoreCase: false,
    ancestors: !rg.noIgnore,
    maxDepth: rg.maxDepth,
    skipSymlinks: true,
    override: overrides
      ? (path, name, isDir) => {
          // Globs are read relative to the working directory, as ripgrep reads them.
          const verdict = overrides.match(path.startsWith(`${cwd}/`) ? cwd : '/', path, name, isDir);
          if (verdict !== null) return verdict;
          return anyWhitelist && !isDir ? 'ignored' : null;
        }
      : undefined,
    fileFilter:
      wanted || unwanted
        ? (name) => (wanted === null || wanted.match('/', `/${name}`, name, false) === 'ignored') &&
            (unwanted === null || unwanted.match('/', `/${name}`, name, false) !== 'ignored')
        : undefined,
  };
}

/** -g globs as ignore rules with the sense flipped: a glob keeps what it matches, a "!glob" leaves it out. */
function globOverrides(rg: RgOptions): GitignoreRules {
  const lines = rg.globs.map(({ glob }) => (glob.startsWith('!') ? glob.slice(1) : `!${glob}`));
  if (rg.globs.some(({ ignoreCase }) => ignoreCase !== rg.globs[0].ignoreCase)) throw new Unsupported('--glob mixed with --iglob');
  return new GitignoreRules(lines.join('\n'), rg.globCaseInsensitive || rg.globs[0].ignoreCase);
}
