// The grep tool: searches file contents with a regular expression (or literal text) by walking the runtime's files.
import { Type, type Static } from '@sinclair/typebox';
import { minimatch } from 'minimatch';
import type { AgentTool } from '../agent/types';
import type { Runtime } from '../runtime/types';
import { Workspace } from '../runtime/workspace';
import { effectsOf } from './catalog';
import { relativeTo } from './paths';
import { hasNulByte, textResult } from './tool-support';
import { DEFAULT_MAX_BYTES, truncateHead } from './truncate';
import { decodeUtf8Strict, formatBytes } from './utf8';
import { walkTree } from './walk';
import { errorText } from '../ai/messages';

export const DEFAULT_GREP_LIMIT = 100;
export const GREP_MAX_LINE_CHARS = 500;

export const grepParameters = Type.Object({
  pattern: Type.String({ description: 'Regular expression (JavaScript syntax) to search for, or plain text with literal: true.' }),
  path: Type.Optional(Type.String({ description: 'Folder or file to search (default: the project folder).' })),
  glob: Type.Optional(Type.String({ description: 'Only search files whose path matches this glob, e.g. "*.ts" or "src/**/*.svelte".' })),
  ignoreCase: Type.Optional(Type.Boolean({ description: 'Match regardless of letter case.' })),
  literal: Type.Optional(Type.Boolean({ description: 'Treat pattern as plain text, not a regular expression.' })),
  context: Type.Optional(Type.Integer({ minimum: 0, description: 'Lines of context to show before and after each match.' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, description: `Maximum number of matches (default ${DEFAULT_GREP_LIMIT}).` })),
});

export type GrepArguments = Static<typeof grepParameters>;

export interface GrepDetails {
  matches: number;
  filesSearched: number;
  limitReached: boolean;
}

/** The grep tool over `target`'s workspace. */
export function createGrepTool(target: Runtime | Workspace): AgentTool<typeof grepParameters> {
  const workspace = Workspace.of(target);
  return {
    name: 'grep',
    label: 'Grep',
    description:
      'Search file contents for a regular expression (or literal text). Prints `file:line: text` for each match ' +
      '(context lines as `file-line- text`), paths relative to the project folder. Skips node_modules, .git, ' +
      `binary files and anything .gitignore excludes. Stops at ${DEFAULT_GREP_LIMIT} matches unless limit is given.`,
    parameters: grepParameters,
    effects: (args) => effectsOf('grep', [workspace.resolve(args.path ?? '.')]),
    async execute(_toolCallId, args, signal) {
      const matcher = buildMatcher(args);
      const root = workspace.resolve(args.path ?? '.');
      const stat = await workspace.stat(root);
      if (stat === null) throw new Error(`Path not found: ${args.path} (resolved to ${root}). Use ls or find to locate it.`);
      const limit = args.limit ?? DEFAULT_GREP_LIMIT;
      const context = args.context ?? 0;
      const files = stat.type === 'dir' ? filesUnder(workspace, root, args.glob, signal) : single(root);

      const lines: string[] = [];
      let matches = 0;
      let filesSearched = 0;
      let limitReached = false;
      for await (const file of files) {
        if (signal?.aborted) throw new Error('Search aborted.');
        const text = await readText(workspace, file);
        if (text === null) continue;
        filesSearched++;
        const fileLines = text.split('\n');
        const found = searchLines(fileLines, matcher, limit - matches);
        if (found.length === 0) continue;
        matches += found.length;
        lines.push(...formatMatches(workspace.display(file), fileLines, found, context));
        if (matches >= limit) {
          limitReached = true;
          break;
        }
      }

      const details: GrepDetails = { matches, filesSearched, limitReached };
      if (matches === 0) {
        return textResult(`No matches for ${JSON.stringify(args.pattern)} in ${workspace.display(root)} ` +
          `(${filesSearched} files searched).`, details);
      }
      const cut = truncateHead(lines.join('\n'));
      const notices: string[] = [];
      if (limitReached) {
        notices.push(`[Stopped at ${limit} matches. Narrow the search with a more specific pattern, a path or a glob, or raise limit.]`);
      }
      if (cut.truncated) {
        notices.push(`[Output cut at ${formatBytes(DEFAULT_MAX_BYTES)}. Narrow the search with a path or glob, or use a smaller context.]`);
      }
      return textResult(notices.length ? `${cut.content}\n\n${notices.join('\n')}` : cut.content, details);
    },
  };
}

function buildMatcher(args: GrepArguments): RegExp {
  const source = args.literal ? args.pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : args.pattern;
  try {
    return new RegExp(source, args.ignoreCase ? 'iu' : 'u');
  } catch {
    try {
      return new RegExp(source, args.ignoreCase ? 'i' : '');
    } catch (error) {
      const reason = errorText(error);
      throw new Error(`Invalid regular expression ${JSON.stringify(args.pattern)}: ${reason}. ` +
        'Fix the pattern, or pass literal: true to search for the text as written.');
    }
  }
}

async function* filesUnder(runtime: Runtime, root: string, glob: string | undefined, signal?: AbortSignal) {
  for await (const entry of walkTree(runtime, root, signal)) {
    if (entry.type === 'dir') continue;
    if (glob && !matchesGlob(relativeTo(root, entry.absolute) ?? entry.absolute, glob)) continue;
    yield entry.absolute;
  }
}

async function* single(path: string) {
  yield path;
}

export function matchesGlob(relative: string, glob: string): boolean {
  const pattern = glob.startsWith('./') ? glob.slice(2) : glob;
  return minimatch(relative, pattern, { dot: true, matchBase: !pattern.includes('/') });
}

async function readText(runtime: Runtime, path: string): Promise<string | null> {
  try {
    const bytes = await runtime.readFile(path);
    return hasNulByte(bytes) ? null : decodeUtf8Strict(bytes);
  } catch {
    return null; // dangling symlinks and unreadable files are skipped
  }
}

function searchLines(lines: string[], matcher: RegExp, max: number): number[] {
  const found: number[] = [];
  for (let i = 0; i < lines.length && found.length < max; i++) {
    if (matcher.test(lines[i])) found.push(i);
  }
  return found;
}

function formatMatches(file: string, lines: string[], found: number[], context: number): string[] {
  const out: string[] = [];
  const matched = new Set(found);
  let printedUpTo = -1;
  for (const index of found) {
    const from = Math.max(0, index - context, printedUpTo + 1);
    const to = Math.min(lines.length - 1, index + context);
    if (printedUpTo >= 0 && from > printedUpTo + 1 && context > 0) out.push('--');
    for (let i = from; i <= to; i++) {
      const separator = matched.has(i) ? ':' : '-';
      out.push(`${file}${separator}${i + 1}${separator} ${clip(lines[i])}`);
    }
    printedUpTo = Math.max(printedUpTo, to);
  }
  return out;
}

function clip(line: string): string {
  const text = line.endsWith('\r') ? line.slice(0, -1) : line;
  return text.length > GREP_MAX_LINE_CHARS ? `${text.slice(0, GREP_MAX_LINE_CHARS)}… [line cut at ${GREP_MAX_LINE_CHARS} chars]` : text;
}
