// The in-memory file system's folders indexed for searches (the shell's rg and grep -r, Runtime.search): built on
// first need and dropped whenever anything changes. A build that a change overtook still answers the search that
// asked for it, but is not kept.

import type { InMemoryFs } from 'just-bash';
import { MemoryTree } from './memory-tree';

export class SearchIndex {
  private tree: MemoryTree | undefined;
  private version = 0;

  /** An index over whichever file system `memory` returns at the time (a staged import swaps it). */
  constructor(private readonly memory: () => InMemoryFs) {}

  /** The indexed tree, or null when the file system cannot be indexed (then search walks it). */
  async current(): Promise<MemoryTree | null> {
    if (this.tree) return this.tree;
    const version = this.version;
    const tree = await MemoryTree.over(this.memory());
    if (tree && version === this.version) this.tree = tree;
    return tree;
  }

  /** Something in the file system changed: the next search indexes it again. */
  invalidate(): void {
    this.version++;
    this.tree = undefined;
  }
}
