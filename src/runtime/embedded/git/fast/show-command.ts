// `git show` of HEAD: just-git writes it, and its patch is then written again here the way diff-command.ts writes
// one, because just-git's leaves out mode changes and carriage returns (patch-text.ts). Only HEAD with one parent
// is done; anything else is just-git's alone.
import { diffTrees, formatDiff, readBlob, readCommit, type GitRepo } from 'just-git/repo';
import type { GitResult } from '../git-arguments';
import { correctPatch, type PatchFile } from './patch-text';

/** Whether `args` (after `show`) ask for HEAD as `git show` prints it by default. */
export function showsHead(args: readonly string[]): boolean {
  return args.length === 0 || (args.length === 1 && args[0] === 'HEAD');
}

/** just-git's `git show` result (`shown`) for HEAD (`head`), its patch corrected. */
export async function correctShow(repo: GitRepo, head: string, shown: GitResult): Promise<GitResult> {
  const commit = await readCommit(repo, head);
  if (shown.exitCode !== 0 || commit.parents.length !== 1) return shown;
  const parent = commit.parents[0];
  const start = shown.stdout.search(/^diff --git /m);
  const header = start === -1 ? `${shown.stdout.replace(/\n*$/, '')}\n\n` : shown.stdout.slice(0, start);
  const files: PatchFile[] = [];
  for (const change of await diffTrees(repo, (await readCommit(repo, parent)).tree, commit.tree)) {
    const side = async (hash: string | undefined, mode: string | undefined) => (hash && mode ? { data: await readBlob(repo, hash), mode: parseInt(mode, 8) } : null);
    files.push({ path: change.path, before: await side(change.oldHash, change.oldMode), after: await side(change.newHash, change.newMode) });
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const patch = correctPatch(await formatDiff(repo, parent, head), files);
  return { ...shown, stdout: patch === '' ? shown.stdout : header + patch };
}
