// The grep tool: searches file contents with a regular expression (or literal text), where the runtime's files are.
import { Type, type Static } from '@sinclair/typebox';
import type { AgentTool } from '../agent/types';
import type { FileMatches, SearchLine } from '../runtime/search-types';
import type { Runtime } from '../runtime/types';
import { Workspace } from '../runtime/workspace/workspace';
import { errorText } from '../ai/messages';
import { effectsOf } from './catalog';
import { grepFiles } from './search-files';
import { textResult } from './tool-support';
import { DEFAULT_MAX_BYTES, truncateHead } from './truncate';
import { formatBytes } from './utf8';

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
      const query = { root, isDir: stat.type === 'dir', matcher, glob: args.glob, limit, context, maxLineChars: GREP_MAX_LINE_CHARS };
      const { matches, filesSearched, limitReached, files } = await grepFiles(workspace, query, signal);
      const lines = files.flatMap((file) => formatMatches(workspace.display(file.path), file, context));

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

function formatMatches(path: string, file: FileMatches, context: number): string[] {
  const out: string[] = [];
  const matched = new Set(file.matched);
  const shown = new Map(file.lines.map((line) => [line.index, line]));
  let printedUpTo = -1;
  for (const index of file.matched) {
    const from = Math.max(0, index - context, printedUpTo + 1);
    const to = Math.min(file.lineCount - 1, index + context);
    if (printedUpTo >= 0 && from > printedUpTo + 1 && context > 0) out.push('--');
    for (let i = from; i <= to; i++) {
      const separator = matched.has(i) ? ':' : '-';
      out.push(`${path}${separator}${i + 1}${separator} ${clip(shown.get(i))}`);
    }
    printedUpTo = Math.max(printedUpTo, to);
  }
  return out;
}

function clip(line: SearchLine | undefined): string {
  if (line === undefined) throw new Error('The search returned a match without its context lines.');
  return line.cut ? `${line.text}… [line cut at ${GREP_MAX_LINE_CHARS} chars]` : line.text;
}
