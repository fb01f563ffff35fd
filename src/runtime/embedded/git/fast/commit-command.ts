// `git commit -m <message>` (and `-a`, `-am`) from the stat-cached state: the new tree is HEAD's tree with the staged
// paths replaced, so only the folders on their way are written, not all of the repository's trees. It prints git's
// summary. A rename, an empty message, nothing to commit, a date git would parse some other way, or any other
// option return null, and just-git commits instead.
import { createCommit, diffCommits, readBlob, updateTree } from 'just-git/repo';
import { isBinary, shortStat } from './diff-stat';
import type { GitResult } from '../git-arguments';
import type { IndexEntry } from '../git-index';
import type { IndexedListingFs } from '../indexed-listing-fs';
import { stagedChanges, type StagedChange } from './staged-changes';
import { blobSize, writeIndex, type WorkTreeState } from './work-tree-state';

type Request = { messages: string[]; all: boolean };
type Identity = { name: string; email: string; timestamp: number; timezone: string };

/** What `args` (after `commit`) ask for, or null when this file does not do it. */
export function commitRequest(args: readonly string[]): Request | null {
  const request: Request = { messages: [], all: false };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '-a' || arg === '--all') request.all = true;
    else if (arg === '-m' || arg === '--message') {
      if (i + 1 >= args.length) return null;
      request.messages.push(args[++i]);
    } else if (arg.startsWith('--message=')) request.messages.push(arg.slice('--message='.length));
    else if (/^-a?m/.test(arg)) {
      if (arg.startsWith('-a')) request.all = true;
      const attached = arg.slice(arg.indexOf('m') + 1);
      if (attached !== '') request.messages.push(attached);
      else if (i + 1 < args.length) request.messages.push(args[++i]);
      else return null;
    } else return null;
  }
  return request.messages.length > 0 ? request : null;
}

/** Commits as `request` asks (see the file comment); `env` is the command's environment, `fallback` the default identity. */
/**
 * Nothing staged: git then prints what `git status` prints, with exit code 1, which the caller writes
 * (`NOTHING_TO_COMMIT`); just-git would hash the whole work tree to say it.
 */
export const NOTHING_TO_COMMIT = 'nothing to commit';

export async function runCommit(fs: IndexedListingFs, state: WorkTreeState, request: Request, env: ReadonlyMap<string, string>, fallback: { name: string; email: string }): Promise<GitResult | typeof NOTHING_TO_COMMIT | null> {
  const message = cleanMessage(request.messages.join('\n\n'));
  if (message === '') return null;
  const entries = new Map<string, IndexEntry>(state.index.map((entry) => [entry.path, entry]));
  const written: { path: string; data: Uint8Array }[] = [];
  if (request.all) {
    for (const change of state.scan.changes) {
      const path = change.entry.path;
      if (change.kind === 'deleted') entries.delete(path);
      else {
        entries.set(path, { path, blobId: change.blobId, mode: change.mode, stat: change.stat });
        written.push({ path, data: change.data });
      }
    }
  }
  const index = [...entries.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const staged = request.all ? await stagedChanges(state.head, index, blobSize(state.repo)) : state.staged;
  if (!staged) return null;
  // With -a, a work-tree change that brings a file back to HEAD would change the index first: left to just-git.
  if (staged.length === 0) return request.all && state.scan.changes.length > 0 ? null : NOTHING_TO_COMMIT;
  const config = await userConfig(fs, `${state.gitDir}/config`);
  const author = identity(env, 'AUTHOR', config, fallback);
  const committer = identity(env, 'COMMITTER', config, fallback);
  if (!author || !committer) return null;

  for (const file of written) await state.repo.objectStore.write('blob', file.data);
  const updates = staged.flatMap((change) => {
    const entry = entries.get(change.path);
    const update = entry ? { path: change.path, hash: entry.blobId, mode: entry.mode.toString(8) } : { path: change.path, hash: null };
    return change.kind === 'renamed' ? [{ path: change.from, hash: null }, update] : [update];
  });
  const tree = await updateTree(state.repo, state.headTree, updates);
  const commit = await createCommit(state.repo, { tree, parents: [state.headCommit], author, committer, message, branch: state.branch });
  if (request.all) await writeIndex(fs, state, index);
  return { stdout: await summary(state, commit, message, staged, entries), stderr: '', exitCode: 0 };
}

// What git prints after a commit: the branch, short id and subject, the shortstat, then the files created, deleted
// or whose mode changed.
async function summary(state: WorkTreeState, commit: string, message: string, staged: readonly StagedChange[], modes: ReadonlyMap<string, IndexEntry>): Promise<string> {
  const paths = staged.map((change) => change.path);
  const subject = message.replace(/\n+$/, '').split('\n\n')[0].replace(/\n/g, ' ');
  let insertions = 0;
  let deletions = 0;
  for (const diff of await diffCommits(state.repo, state.headCommit, commit)) {
    const sides = [state.head.get(diff.oldPath ?? diff.path)?.blobId, modes.get(diff.path)?.blobId];
    if ((await Promise.all(sides.map(async (id) => id !== undefined && isBinary(await readBlob(state.repo, id))))).some(Boolean)) continue; // git counts no lines in a binary file
    for (const hunk of diff.hunks) for (const line of hunk.lines) line[0] === '+' ? insertions++ : line[0] === '-' ? deletions++ : 0;
  }
  let out = `[${state.branch} ${commit.slice(0, 7)}] ${subject}\n${shortStat(paths.length, insertions, deletions)}\n`;
  for (const change of staged) {
    const path = change.path;
    if (change.kind === 'renamed') {
      out += ` rename ${renameText(change.from, path)} (100%)\n`;
      continue;
    }
    const before = state.head.get(path)?.mode.toString(8);
    const now = modes.get(path)?.mode.toString(8);
    if (before === undefined && now !== undefined) out += ` create mode ${now} ${path}\n`;
    else if (before !== undefined && now === undefined) out += ` delete mode ${before} ${path}\n`;
    else if (before !== now) out += ` mode change ${before} => ${now} ${path}\n`;
  }
  return out;
}

/** A rename as git's summaries print it: the common folders outside braces, `src/{a.js => b.js}`. */
export function renameText(from: string, to: string): string {
  const at = (text: string, i: number) => (i < text.length ? text[i] : '');
  let prefix = 0;
  for (let i = 0; i < from.length && i < to.length && from[i] === to[i]; i++) if (from[i] === '/') prefix = i + 1;
  let suffix = 0;
  const back = prefix ? 1 : 0;
  for (let a = from.length, b = to.length; prefix - back <= a && prefix - back <= b && at(from, a) === at(to, b); a--, b--) {
    if (at(from, a) === '/') suffix = from.length - a;
  }
  const fromMiddle = from.slice(prefix, Math.max(prefix, from.length - suffix));
  const toMiddle = to.slice(prefix, Math.max(prefix, to.length - suffix));
  if (prefix + suffix === 0) return `${from} => ${to}`;
  return `${from.slice(0, prefix)}{${fromMiddle} => ${toMiddle}}${from.slice(from.length - suffix)}`;
}

/** git's `whitespace` clean-up of a message given with -m: no trailing spaces, no blank lines at the ends or twice. */
function cleanMessage(text: string): string {
  const lines = text.split('\n').map((line) => line.replace(/\s+$/, ''));
  const kept: string[] = [];
  for (const line of lines) if (line !== '' || (kept.length > 0 && kept[kept.length - 1] !== '')) kept.push(line);
  while (kept.length > 0 && kept[kept.length - 1] === '') kept.pop();
  return kept.length === 0 ? '' : `${kept.join('\n')}\n`;
}

/** Who, as just-git decides it: GIT_<ROLE>_NAME/EMAIL, then user.name/email, then the default; null for a date it would parse otherwise. */
function identity(env: ReadonlyMap<string, string>, role: 'AUTHOR' | 'COMMITTER', config: Map<string, string>, fallback: { name: string; email: string }): Identity | null {
  const date = env.get(`GIT_${role}_DATE`);
  const raw = date === undefined ? null : /^@?(\d+)(?: ([+-]\d{4}))?$/.exec(date.trim());
  if (date !== undefined && !raw) return null;
  return {
    name: env.get(`GIT_${role}_NAME`) ?? config.get('name') ?? fallback.name,
    email: env.get(`GIT_${role}_EMAIL`) ?? config.get('email') ?? fallback.email,
    timestamp: raw ? Number(raw[1]) : Math.floor(Date.now() / 1000),
    timezone: raw?.[2] ?? '+0000',
  };
}

/** The [user] section of the repository's config (plain `key = value` lines). */
async function userConfig(fs: IndexedListingFs, path: string): Promise<Map<string, string>> {
  const values = new Map<string, string>();
  let text = '';
  try {
    text = await fs.readFile(path);
  } catch {
    return values;
  }
  let inUser = false;
  for (const line of text.split('\n')) {
    const section = /^\s*\[([^\]]+)\]/.exec(line);
    if (section) inUser = section[1].trim().toLowerCase() === 'user';
    const setting = inUser ? /^\s*(name|email)\s*=\s*(.*?)\s*$/i.exec(line) : null;
    if (setting) values.set(setting[1].toLowerCase(), setting[2].replace(/^"(.*)"$/, '$1'));
  }
  return values;
}
