// The embedded runtime's `git`: just-git over the workspace's own file system, local only. Loaded on the first `git`
// command (git-command.ts), so its ~130 kB stay out of start-up. Before the first command that runs inside the
// workspace, a workspace without `.git` becomes a repository whose first commit is the imported baseline.

import type { Command, CommandContext } from 'just-bash';
import { createGit } from 'just-git';
import { BASELINE_AUTHOR, commitBaseline } from './baseline-repo';
import type { PendingBaseline } from './pending-baseline';

export type EmbeddedGitOptions = {
  /** The workspace folder (absolute): where the baseline's repository is made. */
  workdir: string;
  /** The imported baseline still to be committed, set by the runtime. */
  baseline: PendingBaseline;
};

/** Subcommands that need a remote: there is no network in the embedded runtime. */
const NETWORK_SUBCOMMANDS = new Set(['clone', 'fetch', 'pull', 'push']);

/** The `git` command for just-bash (see the file comment). */
export function createEmbeddedGit(options: EmbeddedGitOptions): Command {
  const git = createGit({
    identity: BASELINE_AUTHOR, // a default: `git config user.name` or GIT_AUTHOR_NAME still win
    network: false,
    hooks: {
      beforeCommand: ({ command }) => (NETWORK_SUBCOMMANDS.has(command) ? { reject: true, message: offlineMessage(command) } : undefined),
    },
  });
  let making: Promise<void> | null = null;

  /** Makes the baseline's repository if one is pending and `cwd` is in the workspace; one at a time. */
  async function ensureRepository(ctx: CommandContext): Promise<void> {
    const baseline = options.baseline.pending();
    if (!baseline || !isWithin(options.workdir, ctx.cwd)) return;
    making ??= (async () => {
      const gitDir = `${options.workdir}/.git`;
      if (await ctx.fs.exists(gitDir)) {
        options.baseline.settle(baseline);
        return;
      }
      try {
        await commitBaseline(git, ctx.fs, options.workdir, baseline);
        options.baseline.settle(baseline);
      } catch (error) {
        await ctx.fs.rm(gitDir, { recursive: true, force: true }).catch(() => undefined); // no half-made repository
        throw error;
      }
    })().finally(() => {
      making = null;
    });
    await making;
  }

  return {
    name: 'git',
    async execute(args, ctx) {
      try {
        await ensureRepository(ctx);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        return {
          stdout: '',
          stderr: `fatal: could not make the repository of the imported files (${reason}). The workspace files are unchanged; run the git command again to retry.\n`,
          exitCode: 128,
        };
      }
      return git.execute(args, ctx);
    },
  };
}

function offlineMessage(subcommand: string): string {
  return (
    `fatal: git ${subcommand} is not available in Conch's embedded runtime: it has no network access, so no remote ` +
    `can be reached. Local git works (status, add, commit, diff, log, show, branch, switch, restore, reset, stash).\n`
  );
}

function isWithin(folder: string, path: string): boolean {
  return path === folder || path.startsWith(`${folder}/`);
}
