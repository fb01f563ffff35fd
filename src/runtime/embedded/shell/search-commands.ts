// The shell's rg and grep -r on the runtime-side search engine, replacing just-bash's own for what they handle.

import type { Command } from 'just-bash';
import type { MemoryTree } from '../memory-tree';
import { createGrepCommand } from './grep-command';
import { createRgCommand } from './rg-command';

/** just-bash custom commands `rg` and `grep` over `tree()`, the file system's current index. */
export function searchCommands(tree: () => Promise<MemoryTree | null>): Command[] {
  return [createRgCommand(tree), createGrepCommand(tree)];
}
