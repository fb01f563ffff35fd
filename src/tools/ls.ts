// The ls tool: lists one folder's entries.
import { Type, type Static } from '@sinclair/typebox';
import type { AgentTool } from '../agent/types';
import type { Runtime } from '../runtime/types';
import { Workspace } from '../runtime/workspace/workspace';
import { effectsOf } from './catalog';
import { textResult } from './tool-support';
import { truncateHead } from './truncate';

export const DEFAULT_LS_LIMIT = 500;

export const lsParameters = Type.Object({
  path: Type.Optional(Type.String({ description: 'Folder to list (default: the project folder).' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, description: `Maximum number of entries (default ${DEFAULT_LS_LIMIT}).` })),
});

export type LsArguments = Static<typeof lsParameters>;

/** The ls tool over `target`'s workspace. */
export function createLsTool(target: Runtime | Workspace): AgentTool<typeof lsParameters> {
  const workspace = Workspace.of(target);
  return {
    name: 'ls',
    label: 'List',
    description:
      'List a folder\'s entries, sorted alphabetically, folders marked with a trailing "/", dotfiles included. ' +
      `At most ${DEFAULT_LS_LIMIT} entries unless limit is given.`,
    parameters: lsParameters,
    effects: (args) => effectsOf('ls', [workspace.resolve(args.path ?? '.')]),
    async execute(_toolCallId, args) {
      const folder = workspace.resolve(args.path ?? '.');
      const shownFolder = workspace.display(folder);
      const stat = await workspace.stat(folder);
      if (stat === null) {
        throw new Error(`Path not found: ${args.path ?? '.'} (resolved to ${folder}). List its parent folder to see what exists.`);
      }
      if (stat.type !== 'dir') {
        throw new Error(`${args.path} is not a directory (it is a ${stat.type}). Use read to see a file's content.`);
      }
      const entries = await workspace.readdir(folder);
      if (entries.length === 0) return textResult(`(${shownFolder} is empty)`, { count: 0 });

      const names = entries
        .map((entry) => (entry.type === 'dir' ? `${entry.name}/` : entry.name))
        .sort((a, b) => {
          const byLower = a.toLowerCase().localeCompare(b.toLowerCase());
          return byLower !== 0 ? byLower : a < b ? -1 : a > b ? 1 : 0;
        });
      const limit = args.limit ?? DEFAULT_LS_LIMIT;
      const cut = truncateHead(names.slice(0, limit).join('\n'));
      const notices: string[] = [];
      if (names.length > limit) notices.push(`[Showing ${limit} of ${names.length} entries. Use limit=${names.length} to see all.]`);
      if (cut.truncated) notices.push(`[Output cut after ${cut.outputLines} entries; use find with a pattern to narrow.]`);
      return textResult(notices.length ? `${cut.content}\n\n${notices.join('\n')}` : cut.content, {
        count: names.length,
        limitReached: names.length > limit,
      });
    },
  };
}
