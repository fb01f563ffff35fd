// `git push` in the embedded shell. A tab cannot speak git's protocol to GitHub or GitLab (no CORS), so the push is
// handed to the page, which asks the person and sends the pushed commit's files the way "Open pull request" does:
// the changes between the imported commit (the repository's first) and the pushed one, as one commit on a branch,
// with its pull or merge request. Only what is committed goes, as with git; never by force.

import type { GitRepo } from 'just-git';
import { getChangedFiles, readBlob, readHead, revParse, walkCommitHistory } from 'just-git/repo';
import type { GitPushChange, GitPushHost, GitPushRequest } from '../../types';
import { BASELINE_BRANCH } from './baseline-repo';
import type { GitResult } from './git-arguments';
import type { RunGit } from './add-changes';

type Refspec = { remote: string; source: string; branch?: string; named: boolean; dryRun: boolean };

const FORCE_FLAGS = new Set(['-f', '--force', '--force-with-lease', '--force-if-includes']);
const QUIET_FLAGS = new Set(['-u', '--set-upstream', '-q', '--quiet', '-v', '--verbose', '--progress', '--no-verify']);
const decoder = new TextDecoder();

/** Runs `git push <args>` through `host`: reads what to send from `repo`, lets the page ask and send, says what happened. */
export async function pushThroughPage(args: readonly string[], repo: GitRepo, run: RunGit, cwd: string, host: GitPushHost, signal?: AbortSignal): Promise<GitResult> {
  const spec = parseArguments(args);
  if (typeof spec === 'string') return failure(spec, 129);
  if (spec.source === 'HEAD' && !spec.named) {
    // Like git's default push: the current branch goes to its namesake, unless it is the imported one.
    const current = (await readHead(repo)).branch;
    if (current && current !== BASELINE_BRANCH) spec.branch = current;
  }
  const remoteUrl = await urlOf(spec.remote, run, cwd);
  if (!remoteUrl) {
    return failure(`fatal: '${spec.remote}' does not appear to be a git repository: this workspace's only remote is origin, the repository it was imported from (git remote -v).`, 128);
  }
  const head = await revParse(repo, spec.source);
  if (!head) return failure(`error: src refspec ${spec.source} does not match any commit.`, 1);
  const base = await importedCommit(repo, head);
  if (!base) {
    return failure(
      `fatal: the history of ${spec.source} does not start at the imported commit ("Imported …"), so Conch cannot tell which changes to send. ` +
        'Commit on top of the imported history (git log shows it), then push again.',
      1,
    );
  }
  const changes = await changesBetween(repo, base.hash, head);
  if (changes.length === 0) return { stdout: '', stderr: 'Everything up-to-date: nothing is committed since the import (git add, then git commit).\n', exitCode: 0 };
  const request: GitPushRequest = { remoteUrl, source: spec.source, message: base.message, changes, ...(spec.branch ? { branch: spec.branch } : {}) };
  if (spec.dryRun) return { stdout: '', stderr: `To ${remoteUrl}\n${summary(request)} (dry run: nothing sent)\n`, exitCode: 0 };
  let answer;
  try {
    answer = await host(request, signal);
  } catch (error) {
    return failure(`error: the push did not reach the page (${error instanceof Error ? error.message : String(error)}); nothing was sent.`, 1);
  }
  if (!answer.pushed) return failure(`error: ${answer.message}`, 1);
  return { stdout: '', stderr: [`To ${remoteUrl}`, `   ${spec.source} -> ${answer.branch}`, ...answer.lines].join('\n') + '\n', exitCode: 0 };
}

/** `[options] [remote [src[:dst]]]`, or the message for what Conch does not do. */
function parseArguments(args: readonly string[]): Refspec | string {
  const positional: string[] = [];
  let dryRun = false;
  for (const arg of args) {
    if (FORCE_FLAGS.has(arg) || /^\+/.test(arg)) {
      return 'fatal: Conch never force-pushes: a push adds a commit on top of the branch, and overwriting a branch someone else moved takes the person\'s confirmation in "Open pull request".';
    }
    if (arg === '-n' || arg === '--dry-run') dryRun = true;
    else if (QUIET_FLAGS.has(arg)) continue;
    else if (arg.startsWith('-')) return `error: git push ${arg} is not supported here; push one branch: git push [origin] [branch | HEAD:branch].`;
    else positional.push(arg);
  }
  if (positional.length > 2) return 'error: Conch pushes one branch at a time: git push [origin] [branch | HEAD:branch].';
  const [remote = 'origin', refspec] = positional;
  if (!refspec) return { remote, source: 'HEAD', named: false, dryRun };
  if (!refspec.includes(':')) {
    // The local main stands for the imported branch, whatever the host calls it: the page then names the branch.
    const branch = refspec.replace(/^refs\/heads\//, '');
    return { remote, source: refspec, branch: branch === 'HEAD' || branch === BASELINE_BRANCH ? undefined : branch, named: true, dryRun };
  }
  const [source = '', destination = ''] = refspec.split(':', 2);
  if (!source) return 'error: deleting a remote branch is not done from Conch.';
  const branch = destination.replace(/^refs\/heads\//, '');
  return { remote, source, branch: branch === '' || branch === 'HEAD' ? undefined : branch, named: true, dryRun };
}

async function urlOf(remote: string, run: RunGit, cwd: string): Promise<string | null> {
  const found = await run(['remote', 'get-url', remote], cwd);
  return found.exitCode === 0 ? found.stdout.trim() || null : null;
}

/** The first commit of `head`'s history when it is the imported one, with the message for the host. */
async function importedCommit(repo: GitRepo, head: string): Promise<{ hash: string; message: string } | null> {
  const made: string[] = [];
  let root: { hash: string; message: string } | null = null;
  for await (const commit of walkCommitHistory(repo, head)) {
    if (commit.parents.length === 0) {
      if (root) return null; // two roots: a merged-in history Conch has no base for
      root = commit;
    } else made.push(commit.message.trim());
  }
  if (!root || !root.message.startsWith('Imported ')) return null;
  return { hash: root.hash, message: messageOf(made) };
}

/** One commit's message as it is; several: the newest one's subject, then each commit's subject, oldest first. */
function messageOf(newestFirst: string[]): string {
  if (newestFirst.length <= 1) return newestFirst[0] ?? '';
  const subjects = newestFirst.map((message) => message.split('\n')[0]!);
  return `${subjects[0]}\n\n${[...subjects].reverse().map((subject) => `- ${subject}`).join('\n')}`;
}

async function changesBetween(repo: GitRepo, base: string, head: string): Promise<GitPushChange[]> {
  const changed = await getChangedFiles(repo, base, head);
  return Promise.all(changed.map(async (entry): Promise<GitPushChange> => {
    if (entry.status === 'deleted' || !entry.newHash) return { path: entry.path, kind: 'deleted' };
    const kind = entry.status === 'added' ? 'added' : 'modified';
    const data = await readBlob(repo, entry.newHash);
    if (entry.newMode === '120000') return { path: entry.path, kind, symlinkTarget: decoder.decode(data) };
    return { path: entry.path, kind, data, ...(entry.newMode === '100755' ? { executable: true } : {}) };
  }));
}

function summary(request: GitPushRequest): string {
  const counts = { added: 0, modified: 0, deleted: 0 };
  for (const change of request.changes) counts[change.kind]++;
  const parts = Object.entries(counts).filter(([, n]) => n > 0).map(([kind, n]) => `${n} ${kind}`);
  return `   ${request.source} -> ${request.branch ?? '(the session\'s branch)'}: ${parts.join(', ')}`;
}

function failure(message: string, exitCode: number): GitResult {
  return { stdout: '', stderr: `${message}\n`, exitCode };
}
