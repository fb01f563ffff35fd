// The `git` command registered with the embedded runtime's shell. Only this small file is loaded at start-up; the
// git implementation itself (embedded-git.ts and just-git) is imported the first time `git` runs.

import type { LazyCommand } from 'just-bash';
import type { EmbeddedGitOptions } from './embedded-git';

/** A just-bash command `git` that loads just-git on first use (see embedded-git.ts for what it does). */
export function lazyGitCommand(options: EmbeddedGitOptions): LazyCommand {
  return {
    name: 'git',
    load: async () => (await import('./embedded-git')).createEmbeddedGit(options),
  };
}
