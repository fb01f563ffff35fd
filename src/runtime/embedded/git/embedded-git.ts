// The embedded runtime's `git`: just-git over the workspace's own file system, local only. Loaded on the first `git`
// command (git-command.ts), so its ~130 kB stay out of start-up. Before the first command that runs inside the
// workspace, a workspace without `.git` becomes a repository whose first commit is the imported baseline. The
// everyday status, diff, add, commit and show run on Conch's stat-cached fast paths (fast/) instead, in the forms
// they write exactly as git does; everything else is just-git's.

import type { Command, CommandContext } from 'just-bash';
import { createGit } from 'just-git';
import { isInside } from '../../paths';
import { addChangedPaths, stagesWholeTree, type RunGit } from './add-changes';
import { BASELINE_AUTHOR, commitBaseline } from './baseline-repo';
import { prepareInvocation, shapeResult, type ArgumentContext } from './git-arguments';
import { FastPaths } from './fast/fast-paths';
import type { FileStats } from './fast/work-tree-scan';
import { IndexedListingFs } from './indexed-listing-fs';
import type { PendingBaseline } from './pending-baseline';
import { pushThroughPage } from './push-through-page';
import type { GitPushHost } from '../../types';

export type EmbeddedGitOptions = {
  /** The workspace folder (absolute): where the baseline's repository is made. */
  workdir: string;
  /** The imported baseline still to be committed, set by the runtime. */
  baseline: PendingBaseline;
  /** The page's side of `git push` (push-through-page.ts); without it, push says there is no network. */
  push?: GitPushHost;
  /** Stat data of the shell's files without an await (the runtime's MemoryStat); without it every file is read. */
  fileStats?: FileStats;
};

/** Subcommands that need a remote: there is no network in the embedded runtime. */
const NETWORK_SUBCOMMANDS = new Set(['clone', 'fetch', 'pull', 'push']);

/** The `git` command for just-bash (see the file comment). */
export function createEmbeddedGit(options: EmbeddedGitOptions): Command {
  const git = createGit({
    identity: BASELINE_AUTHOR, // a default: `git config user.name` or GIT_AUTHOR_NAME still win
    network: false,
    hooks: {
      beforeCommand: ({ command }) => (NETWORK_SUBCOMMANDS.has(command) ? { reject: true, message: offlineMessage(command, options.push !== undefined) } : undefined),
    },
  });
  const fast = new FastPaths(git, options.fileStats ?? { numbering: 0, stat: () => undefined }, BASELINE_AUTHOR);
  let making: Promise<void> | null = null;
  // One per shell file system, so just-git's per-file-system lock still keeps two git commands from overlapping.
  const listings = new WeakMap<CommandContext['fs'], IndexedListingFs>();

  /** Makes the baseline's repository if one is pending and `cwd` is in the workspace; one at a time. */
  async function ensureRepository(fs: IndexedListingFs, cwd: string): Promise<void> {
    const baseline = options.baseline.pending();
    if (!baseline || !isInside(options.workdir, cwd)) return;
    making ??= (async () => {
      const gitDir = `${options.workdir}/.git`;
      if (await fs.exists(gitDir)) {
        options.baseline.settle(baseline);
        return;
      }
      try {
        fast.madeBaseline(await commitBaseline(git, fs, options.workdir, baseline, new Date(), options.fileStats));
      } catch (error) {
        await fs.rm(gitDir, { recursive: true, force: true }).catch(() => undefined); // no half-made repository
        throw error;
      } finally {
        // Said once: after a failure git goes on without the baseline (git init starts an empty repository).
        options.baseline.settle(baseline);
      }
    })().finally(() => {
      making = null;
    });
    await making;
  }

  return {
    name: 'git',
    async execute(args, ctx) {
      let fs = listings.get(ctx.fs);
      if (!fs) listings.set(ctx.fs, (fs = new IndexedListingFs(ctx.fs)));
      fs.refresh();
      const env = new Map(ctx.env);
      const run: RunGit = (args, cwd) => git.execute(args, { ...ctx, fs, cwd, env });
      const invocation = await prepareInvocation(args, ctx.cwd, argumentContext(fs, run));
      if ('error' in invocation) return { stdout: '', stderr: invocation.error, exitCode: 129 };
      // -c user.name=… is configuration: like git, GIT_AUTHOR_NAME and friends in the environment still win.
      for (const [name, value] of Object.entries(invocation.env)) if (!env.has(name)) env.set(name, value);
      try {
        await ensureRepository(fs, invocation.cwd);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        return {
          stdout: '',
          stderr:
            `fatal: could not make a repository whose first commit is the imported files (${reason}). The workspace ` +
            `files are unchanged; \`git init\` starts an empty repository instead.\n`,
          exitCode: 128,
        };
      }
      const quick = await fast.run(fs, invocation.args, invocation.cwd, env, run);
      if (quick) return shapeResult(quick, invocation);
      if (invocation.args[0] === 'add') {
        const top = await run(['rev-parse', '--show-toplevel'], invocation.cwd);
        const root = top.exitCode === 0 ? top.stdout.trim() : null;
        const staged = root !== null && stagesWholeTree(invocation.args, invocation.cwd, root) ? await addChangedPaths(run, root) : null;
        if (staged) return shapeResult(staged, invocation);
      }
      if (invocation.args[0] === 'push' && options.push) {
        const repo = await git.findRepo({ fs, cwd: invocation.cwd });
        if (!repo) return { stdout: '', stderr: 'fatal: not a git repository (or any of the parent directories): .git\n', exitCode: 128 };
        return pushThroughPage(invocation.args.slice(1), repo, run, invocation.cwd, options.push, ctx.signal);
      }
      return shapeResult(await run(invocation.args, invocation.cwd), invocation);
    },
  };

  function argumentContext(fs: IndexedListingFs, run: RunGit): ArgumentContext {
    return {
      exists: (path) => fs.exists(path),
      isDirectory: async (path) => (await fs.exists(path)) && (await fs.stat(path)).isDirectory,
      isRevision: async (name, cwd) => (await run(['rev-parse', '--verify', name], cwd)).exitCode === 0,
    };
  }
}

function offlineMessage(subcommand: string, canPush: boolean): string {
  // The page's own way out, for the person and for the model that reads this.
  const instead = canPush
    ? ' git push works: it sends the committed work to the repository the session was imported from, after the person agrees.'
    : subcommand === 'push'
    ? ' To send the work to GitHub or GitLab, use "Open pull request" (or "Open merge request") in the Changes tab of a session imported from there.'
    : '';
  return (
    `fatal: git ${subcommand} is not available in Conch's embedded runtime: it has no network access, so no remote ` +
    `can be reached. Local git works (status, add, commit, diff, log, show, branch, switch, restore, reset, stash).${instead}\n`
  );
}

