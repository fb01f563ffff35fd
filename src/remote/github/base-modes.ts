// Which of a push's modified files are executables in the imported commit. The workspace keeps no file modes, and a
// tree entry must name one, so without this a modified script would lose its 100755 in the pull request. Only the
// folders that hold those files are listed (one request each, the root's included), never the whole repository.
import { GitHubClient } from './api';
import { UnexpectedAnswerError } from './errors';

export type BaseModesAccess = { fetch: typeof fetch; apiUrl: string; token: string; signal?: AbortSignal };

type Entry = { path: string; mode: string; type: string; sha: string };

export type BaseModes = { executables: Set<string>; /** The commit's tree: a push's base tree. */ tree: string };

/**
 * The paths among `paths` (repository paths) that the commit `sha` of `owner/repo` holds as executables, and the
 * commit's tree (read from the commit unless `tree` is given, as a push's record may know it).
 */
export async function executablesAt(origin: { owner: string; repo: string; sha: string; tree?: string }, paths: readonly string[], access: BaseModesAccess): Promise<BaseModes> {
  const executables = new Set<string>();
  const client = new GitHubClient({ ...access, rawUrl: '' });
  const repoPath = `/repos/${encodeURIComponent(origin.owner)}/${encodeURIComponent(origin.repo)}`;
  const what = `the file modes of ${origin.owner}/${origin.repo}`;
  const root = origin.tree ?? (await client.get(`${repoPath}/git/commits/${origin.sha}`, what).then((commit) => (commit.body as { tree?: { sha?: unknown } } | null)?.tree?.sha));
  if (typeof root !== 'string') throw new UnexpectedAnswerError(what, 'no tree');

  // Each folder once: a folder's listing gives its files' modes and its subfolders' ids.
  const listings = new Map<string, Promise<Map<string, Entry> | null>>();
  const list = (folder: string): Promise<Map<string, Entry> | null> => {
    let listing = listings.get(folder);
    if (!listing) {
      listing = (async () => {
        const parent = folder.includes('/') ? folder.slice(0, folder.lastIndexOf('/')) : '';
        const sha = folder === '' ? root : (await list(parent))?.get(folder.slice(parent ? parent.length + 1 : 0))?.sha;
        if (!sha) return null;
        const answer = await client.get(`${repoPath}/git/trees/${sha}`, what);
        const tree = (answer.body as { tree?: unknown } | null)?.tree;
        if (!Array.isArray(tree)) throw new UnexpectedAnswerError(what, 'no listing');
        return new Map((tree as Entry[]).map((entry) => [entry.path, entry]));
      })();
      listings.set(folder, listing);
    }
    return listing;
  };
  await Promise.all(paths.map(async (path) => {
    const cut = path.lastIndexOf('/');
    const entry = (await list(cut < 0 ? '' : path.slice(0, cut)))?.get(path.slice(cut + 1));
    if (entry?.type === 'blob' && entry.mode === '100755') executables.add(path);
  }));
  return { executables, tree: root };
}
