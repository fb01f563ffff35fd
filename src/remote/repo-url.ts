// What a person pastes to import a repo, read as a host, a repository and what of it to take. Accepted:
//   https://github.com/OWNER/REPO[.git], …/tree/REF, …/tree/REF/SUBFOLDER, OWNER/REPO@REF, github.com/OWNER/REPO[@REF];
//   https://gitlab.com/GROUP/SUBGROUP/PROJECT, …/-/tree/REF[/SUBFOLDER], and the same on a self-managed GitLab
//   or a GitHub Enterprise host named in settings.
// A branch name may hold slashes (`feature/x`), so `tree/feature/x/src` cannot be split into ref and folder from
// the text alone: `refCandidates` lists the splits for the host to settle, shortest ref first (git forbids a branch
// `feature` beside a branch `feature/x`, so the shortest ref that exists is the one meant).

export type RepoHost = 'github' | 'gitlab';

export type RepoLocation = {
  host: RepoHost;
  /** The web origin the repo lives on, e.g. https://github.com or a self-managed GitLab's. */
  origin: string;
  /** GitHub: the owner. GitLab: the namespace, groups and subgroups joined by '/'. */
  owner: string;
  repo: string;
  /** What came after `tree/`, split at '/', or the `@REF` as one segment; empty: the default branch. */
  treePath: string[];
};

/** The web origins of hosts other than github.com and gitlab.com, as the settings name them. */
export type KnownHosts = { githubOrigins?: string[]; gitlabOrigins?: string[] };

export type RepoUrlResult = { ok: true; location: RepoLocation } | { ok: false; error: string };

const GITHUB = 'https://github.com';
const GITLAB = 'https://gitlab.com';
// Repository (and GitLab group) names: letters, digits, '-', '_' and '.'. GitHub owners have no dots, which tells
// `OWNER/REPO` apart from a host name typed without its scheme (`github.com/OWNER`).
const NAME = /^[A-Za-z0-9_.-]+$/;
const OWNER = /^[A-Za-z0-9-]+$/;
const SHORT_FORM = /^([A-Za-z0-9-]+)\/([A-Za-z0-9_.-]+)(?:@(.+))?$/;

/** Reads a pasted repo reference; the error says what form was expected. */
export function parseRepoUrl(input: string, known: KnownHosts = {}): RepoUrlResult {
  const text = input.trim();
  if (text === '') return failure('Paste a GitHub or GitLab address, such as https://github.com/OWNER/REPO.');
  const short = SHORT_FORM.exec(text);
  if (short && !text.includes('://')) {
    return github(GITHUB, short[1], short[2], short[3] ? [short[3]] : []) ?? unreadable(text);
  }
  const url = asUrl(text);
  if (!url) return unreadable(text);
  const origin = url.origin.toLowerCase();
  const segments = url.pathname.split('/').filter(Boolean).map(decodeSegment);
  if (segments.some((s) => s === null)) return unreadable(text);
  const parts = segments as string[];
  const at = atRef(parts);
  if (origin === GITHUB || (known.githubOrigins ?? []).map(originOf).includes(origin)) {
    const [owner, repo, tree, ...rest] = at.parts;
    if (!owner || !repo) return failure(`${text} names no repository: expected ${url.origin}/OWNER/REPO.`);
    if (tree !== undefined && tree !== 'tree') return failure(`${text} is not a repository's files: expected ${url.origin}/OWNER/REPO or …/tree/BRANCH.`);
    return github(origin, owner, repo, tree === 'tree' ? rest : at.ref) ?? unreadable(text);
  }
  if (origin === GITLAB || (known.gitlabOrigins ?? []).map(originOf).includes(origin)) {
    const dash = at.parts.indexOf('-');
    const projectPath = dash < 0 ? at.parts : at.parts.slice(0, dash);
    const after = dash < 0 ? [] : at.parts.slice(dash + 1);
    if (projectPath.length < 2) return failure(`${text} names no project: expected ${url.origin}/GROUP/PROJECT.`);
    if (after.length > 0 && after[0] !== 'tree') return failure(`${text} is not a project's files: expected ${url.origin}/GROUP/PROJECT or …/-/tree/BRANCH.`);
    const repo = stripGit(projectPath[projectPath.length - 1]);
    const owner = projectPath.slice(0, -1);
    if (![...owner, repo].every((name) => NAME.test(name))) return unreadable(text);
    return { ok: true, location: { host: 'gitlab', origin, owner: owner.join('/'), repo, treePath: after.length ? after.slice(1) : at.ref } };
  }
  return failure(`${url.host} is neither GitHub nor GitLab. A self-managed GitLab or GitHub Enterprise host can be added in Settings.`);
}

/** The ways `treePath` splits into a ref and a subfolder, shortest ref first; the default branch when empty. */
export function refCandidates(location: RepoLocation): { ref: string | null; folder: string }[] {
  const path = location.treePath;
  if (path.length === 0) return [{ ref: null, folder: '' }];
  return path.map((_, i) => ({ ref: path.slice(0, i + 1).join('/'), folder: path.slice(i + 1).join('/') }));
}

/** The repo's web address, as a link or an origin URL for `git remote -v` shows it. */
export function repoWebUrl(location: Pick<RepoLocation, 'origin' | 'owner' | 'repo'>): string {
  return `${location.origin}/${location.owner}/${location.repo}`;
}

function github(origin: string, owner: string, rawRepo: string, treePath: string[]): RepoUrlResult | null {
  const repo = stripGit(rawRepo);
  if (!OWNER.test(owner) || !NAME.test(repo)) return null;
  return { ok: true, location: { host: 'github', origin, owner, repo, treePath } };
}

/** A trailing `@REF` on the last segment (`github.com/o/r@v1`), taken off the path. */
function atRef(parts: string[]): { parts: string[]; ref: string[] } {
  if (parts.length !== 2) return { parts, ref: [] };
  const at = parts[1].indexOf('@');
  if (at <= 0 || at === parts[1].length - 1) return { parts, ref: [] };
  return { parts: [parts[0], parts[1].slice(0, at)], ref: [parts[1].slice(at + 1)] };
}

function asUrl(text: string): URL | null {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`;
  try {
    const url = new URL(withScheme);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : null;
  } catch {
    return null;
  }
}

function originOf(address: string): string {
  return asUrl(address)?.origin.toLowerCase() ?? '';
}

function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

const stripGit = (name: string) => (name.endsWith('.git') ? name.slice(0, -4) : name);

const failure = (error: string): RepoUrlResult => ({ ok: false, error });

const unreadable = (text: string): RepoUrlResult =>
  failure(`Could not read "${text}" as a repository: expected https://github.com/OWNER/REPO, OWNER/REPO@REF or https://gitlab.com/GROUP/PROJECT.`);
