// What the shell's grep and rg share as just-bash commands: read the arguments into a search, run it on the in-memory
// file system's current index with Conch's search engine, and hand the whole invocation to just-bash's own command
// when there is no index or the search meets something it does not handle (Unsupported), instead of guessing.

import type { Command, ExecResult, ResolvedCommandContext } from 'just-bash';
import type { MemoryTree } from '../memory-tree';
import { Unsupported } from './unsupported';

/** A search read from a command line, ready to run on the index in the command's context. */
export type EngineSearch = (tree: MemoryTree, ctx: ResolvedCommandContext) => ExecResult;

/**
 * The just-bash command `name` over `tree()` (null: fall back); `read` turns the arguments into a search, or null
 * when the command is not one for the engine (fall back).
 */
export function engineCommand(
  name: string,
  tree: () => Promise<MemoryTree | null>,
  read: (args: string[]) => EngineSearch | null,
): Command {
  return {
    name,
    async execute(args, ctx) {
      const fallback = (): Promise<ExecResult> =>
        ctx.origCommand ? ctx.origCommand(args) : Promise.resolve({ stdout: '', stderr: `${name}: not available\n`, exitCode: 2 });
      try {
        const search = read(args);
        if (search === null) return await fallback();
        const source = await tree();
        if (!source) return await fallback();
        return search(source, ctx);
      } catch (error) {
        if (error instanceof Unsupported) return fallback();
        throw error;
      }
    },
  };
}

/**
 * The exit status grep and rg agree on: 2 after an error (a missing operand), unless -q found a line; otherwise 0
 * when a line was found, 1 when none was.
 */
export function exitStatus(found: boolean, hadError: boolean, quiet: boolean): number {
  if (hadError) return found && quiet ? 0 : 2;
  return found ? 0 : 1;
}
