// The find tool: lists files and folders whose path matches a glob, searched where the runtime's files are.
import { Type, type Static } from '@sinclair/typebox';
import type { AgentTool } from '../agent/types';
import type { Runtime } from '../runtime/types';
import { Workspace } from '../runtime/workspace/workspace';
import { effectsOf } from './catalog';
import { findEntries } from './search-files';
import { textResult } from './tool-support';
import { truncateHead } from './truncate';

export const DEFAULT_FIND_LIMIT = 1000;

export const findParameters = Type.Object({
  pattern: Type.String({
    description: 'Glob to match, e.g. "*.ts" (any depth: a pattern without "/" matches file names), "src/**/*.test.ts", "**/README*".',
  }),
  path: Type.Optional(Type.String({ description: 'Folder to search in (default: the project folder).' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, description: `Maximum number of results (default ${DEFAULT_FIND_LIMIT}).` })),
});

export type FindArguments = Static<typeof findParameters>;

/** The find tool over `target`'s workspace. */
export function createFindTool(target: Runtime | Workspace): AgentTool<typeof findParameters> {
  const workspace = Workspace.of(target);
  return {
    name: 'find',
    label: 'Find',
    description:
      'Find files and folders by glob pattern. Returns sorted paths relative to the project folder (folders end ' +
      'with "/"), including dotfiles; skips node_modules, .git and anything .gitignore excludes. ' +
      `At most ${DEFAULT_FIND_LIMIT} results unless limit is given.`,
    parameters: findParameters,
    effects: (args) => effectsOf('find', [workspace.resolve(args.path ?? '.')]),
    async execute(_toolCallId, args, signal) {
      const root = workspace.resolve(args.path ?? '.');
      const stat = await workspace.stat(root);
      if (stat === null) throw new Error(`Path not found: ${args.path} (resolved to ${root}). Use ls to see what exists.`);
      if (stat.type !== 'dir') throw new Error(`${args.path} is not a directory; find searches inside a folder.`);
      const limit = args.limit ?? DEFAULT_FIND_LIMIT;

      const found = (await findEntries(workspace, root, args.pattern, signal)).map((entry) => {
        const shown = workspace.display(entry.path);
        return entry.type === 'dir' ? `${shown}/` : shown;
      });
      if (found.length === 0) {
        return textResult(`No files match ${JSON.stringify(args.pattern)} in ${workspace.display(root)}.`, {
          count: 0,
        });
      }
      found.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      const shown = found.slice(0, limit);
      const cut = truncateHead(shown.join('\n'));
      const notices: string[] = [];
      if (found.length > limit) {
        notices.push(`[Showing ${limit} of ${found.length} results. Use a more specific pattern or path, or raise limit.]`);
      }
      if (cut.truncated) {
        notices.push(`[Output cut after ${cut.outputLines} results. Use a more specific pattern or path.]`);
      }
      return textResult(notices.length ? `${cut.content}\n\n${notices.join('\n')}` : cut.content, {
        count: found.length,
        limitReached: found.length > limit,
      });
    },
  };
}
