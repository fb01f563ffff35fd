// Conch's own `git status`, `git diff`, `git add` and `git commit` for the commands an agent runs all the time, on stat data so
// that a 20,000-file repository costs what its changed files cost (see work-tree-scan.ts). Each one answers only
// the forms it writes exactly as git does and returns null for anything else, which just-git then runs on the same
// repository and index: nothing here changes what git means, only how long it takes.
import type { Git } from 'just-git';
import type { GitResult } from '../git-arguments';
import type { IndexedListingFs } from '../indexed-listing-fs';
import { addScope, runAdd } from './add-command';
import { commitRequest, NOTHING_TO_COMMIT, runCommit } from './commit-command';
import { diffRequest, runDiff } from './diff-command';
import { runStatus, statusFormat } from './status-command';
import { correctShow, showsHead } from './show-command';
import { readHead } from 'just-git/repo';
import type { RunGit } from '../add-changes';
import type { BaselineCommit } from '../baseline-repo';
import type { FileStats } from './work-tree-scan';
import { readWorkTreeState, HeadTreeCache } from './work-tree-state';

/** The fast paths of one git command object (they share HEAD's flattened tree between commands). */
export class FastPaths {
  private readonly heads = new HeadTreeCache();

  /** @param stats where the work tree's stat data comes from (the runtime's MemoryStat) */
  constructor(
    private readonly git: Git,
    private readonly stats: FileStats,
    private readonly identity: { name: string; email: string },
  ) {}

  /**
   * The baseline repository was just made (baseline-repo.ts): its tree and index are taken as written, so the first
   * status reads neither back. Only plain-ASCII paths are certain to be in the index file's own order.
   */
  madeBaseline(made: BaselineCommit): void {
    this.heads.know(made.tree, new Map(made.entries.map((entry) => [entry.path, { blobId: entry.blobId, mode: entry.mode }])));
    if (made.entries.every((entry) => /^[\x00-\x7f]*$/.test(entry.path))) this.heads.remember(made.index, made.entries);
  }

  /** `args` run in `cwd` if a fast path does them exactly, else null. */
  /** @param runGit runs a command with just-git, for the commands whose output is only corrected here */
  async run(fs: IndexedListingFs, args: readonly string[], cwd: string, env: ReadonlyMap<string, string>, runGit: RunGit): Promise<GitResult | null> {
    const [subcommand, ...rest] = args;
    const status = subcommand === 'status' ? statusFormat(rest) : null;
    const diff = subcommand === 'diff' ? diffRequest(rest) : null;
    const add = subcommand === 'add' ? addScope(rest) : null;
    const commit = subcommand === 'commit' ? commitRequest(rest) : null;
    if (subcommand === 'show' && showsHead(rest)) return this.show(fs, args, cwd, runGit);
    if (!status && !diff && !add && !commit) return null;
    const state = await readWorkTreeState(this.git, fs, cwd, this.stats, this.heads, !commit || commit.all);
    if (!state || state.workTree !== cwd) return null;
    if (status) return runStatus(fs, this.stats, state, status);
    if (diff) return runDiff(fs, state, diff);
    if (add) return runAdd(fs, this.stats, state, add);
    if (!commit) return null;
    const committed = await runCommit(fs, state, commit, env, this.identity);
    if (committed !== NOTHING_TO_COMMIT) return committed;
    const scanned = commit.all ? state : await readWorkTreeState(this.git, fs, cwd, this.stats, this.heads);
    const printed = scanned && (await runStatus(fs, this.stats, scanned, { kind: 'long', branch: false }));
    return printed && { ...printed, exitCode: 1 };
  }

  private async show(fs: IndexedListingFs, args: readonly string[], cwd: string, runGit: RunGit): Promise<GitResult | null> {
    const repo = await this.git.findRepo({ fs, cwd });
    const head = repo ? (await readHead(repo)).hash : null;
    if (!repo || !head) return null;
    return correctShow(repo, head, await runGit([...args], cwd));
  }
}
