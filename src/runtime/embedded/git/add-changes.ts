// `git add -A` (and `git add .` at the top of the work tree) as just-git runs it stages every tracked file again, and
// each staging re-sorts the whole index: on a 20,000-file repo that took minutes. Staging only what status reports
// as changed gives the same index in the time of one status.

import type { GitResult } from './git-arguments';

/** Runs git `args` in `cwd` (the caller's just-git, same file system and environment). */
export type RunGit = (args: string[], cwd: string) => Promise<GitResult>;

/** Whether `args` stage the whole work tree: `add -A`/`--all` anywhere, or `add .` (with or without -A) at `top`. */
export function stagesWholeTree(args: readonly string[], cwd: string, top: string | null): boolean {
  if (args[0] !== 'add') return false;
  const rest = args.slice(1).filter((arg) => arg !== '--');
  const all = rest.filter((arg) => arg === '-A' || arg === '--all');
  const others = rest.filter((arg) => arg !== '-A' && arg !== '--all');
  if (others.length === 0) return all.length > 0;
  return others.length === 1 && others[0] === '.' && cwd === top;
}

/**
 * Stages the changes `git status --porcelain` lists (modified, deleted and untracked paths), running from `top`.
 * Null when a listed path cannot be passed on as it is: the caller runs the plain `git add` then.
 */
export async function addChangedPaths(run: RunGit, top: string): Promise<GitResult | null> {
  const status = await run(['status', '--porcelain'], top);
  if (status.exitCode !== 0) return status;
  const paths: string[] = [];
  for (const line of status.stdout.split('\n')) {
    if (line.length < 4) continue;
    const [index, worktree, path] = [line[0], line[1], line.slice(3)];
    // Quoted (unusual characters) or option-like (just-git's add takes no `--`): left to the plain `git add`.
    if (path.startsWith('"') || path.startsWith('-')) return null;
    if (index === '?' || worktree !== ' ') paths.push(path.replace(/\/$/, ''));
  }
  if (paths.length === 0) return { stdout: '', stderr: '', exitCode: 0 };
  return run(['add', ...paths], top);
}
