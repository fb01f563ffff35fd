// Pull requests and forks as the mock keeps them, in GitHub's wire formats (`pull-request`, `full-repository`):
// a pull opened from a branch of the repository or of a fork (`head: owner:branch`), listed by head and state,
// edited; one open pull per head and base, as GitHub allows. A fork shares its parent's objects and answers only
// after a few reads, as GitHub's forks are made in the background.
import type { MockRepo } from './fixture';
import type { MockTokenGrant } from './grants';
import type { Send, WriteContext } from './git-writes';
import { writeRequest } from './git-writes';
import { errorBody, repositoryBody } from './wire-rest';

export type MockPull = { number: number; title: string; body: string; headOwner: string; head: string; base: string; state: 'open' | 'closed'; draft: boolean; user: string };

export type PullContext = WriteContext & {
  /** A repository by owner and name, or undefined. */
  repoNamed(owner: string, name: string): MockRepo | undefined;
  pullsOf(repo: MockRepo): MockPull[];
};

const DOCS = 'https://docs.github.com/rest/pulls/pulls';

/** Answers a pulls route below /repos/{o}/{r}/ (`rest`); false when `rest` is not one. */
export function answerPullRoute(context: PullContext, repo: MockRepo, grant: MockTokenGrant | null, method: string, rest: string, url: URL, bodyText: string, send: Send): boolean {
  const pulls = context.pullsOf(repo);
  if (rest === 'pulls' && method === 'GET') {
    const head = url.searchParams.get('head');
    const state = url.searchParams.get('state') ?? 'open';
    const listed = pulls.filter((pull) => (state === 'all' || pull.state === state) && (!head || `${pull.headOwner}:${pull.head}`.toLowerCase() === head.toLowerCase()));
    send(200, listed.map((pull) => pullBody(context, repo, pull)));
    return true;
  }
  const numbered = /^pulls\/(\d+)$/.exec(rest);
  if (numbered && method === 'GET') {
    const pull = pulls.find((p) => p.number === Number(numbered[1]));
    send(pull ? 200 : 404, pull ? pullBody(context, repo, pull) : errorBody(404, 'Not Found', `${DOCS}#get-a-pull-request`));
    return true;
  }
  if (!((rest === 'pulls' && method === 'POST') || (numbered && method === 'PATCH'))) return false;
  const write = writeRequest(grant, repo, 'pullRequests', bodyText, DOCS, send);
  if (!write) return true;
  const { body } = write;
  if (numbered) {
    const pull = pulls.find((p) => p.number === Number(numbered[1]));
    if (!pull) {
      send(404, errorBody(404, 'Not Found', `${DOCS}#update-a-pull-request`));
      return true;
    }
    if (typeof body.title === 'string') pull.title = body.title;
    if (typeof body.body === 'string') pull.body = body.body;
    if (body.state === 'open' || body.state === 'closed') pull.state = body.state;
    send(200, pullBody(context, repo, pull));
    return true;
  }
  openPull(context, repo, write.grant, body, send);
  return true;
}

function openPull(context: PullContext, repo: MockRepo, grant: MockTokenGrant, body: Record<string, unknown>, send: Send): void {
  const invalid = (field: string, message?: string) =>
    send(422, { message: 'Validation Failed', errors: [{ resource: 'PullRequest', field, code: message ? 'custom' : 'invalid', ...(message ? { message } : {}) }], documentation_url: `${DOCS}#create-a-pull-request`, status: '422' });
  if (typeof body.title !== 'string' || body.title.trim() === '') return invalid('title');
  if (typeof body.head !== 'string' || typeof body.base !== 'string') return invalid(typeof body.head !== 'string' ? 'head' : 'base');
  const [headOwner, head] = body.head.includes(':') ? body.head.split(':', 2) : [repo.owner, body.head];
  const headRepo = headOwner.toLowerCase() === repo.owner.toLowerCase() ? repo : context.repoNamed(headOwner, repo.name);
  if (!headRepo?.branches.has(head)) return invalid('head');
  if (!repo.branches.has(body.base)) return invalid('base');
  const pulls = context.pullsOf(repo);
  if (pulls.some((p) => p.state === 'open' && p.headOwner.toLowerCase() === headOwner.toLowerCase() && p.head === head && p.base === body.base)) {
    return invalid('', `A pull request already exists for ${headOwner}:${head}.`);
  }
  const pull: MockPull = {
    number: pulls.length + 1, title: body.title, body: typeof body.body === 'string' ? body.body : '', headOwner: headRepo.owner, head,
    base: body.base, state: 'open', draft: body.draft === true, user: grant.login,
  };
  pulls.push(pull);
  send(201, pullBody(context, repo, pull));
}

function pullBody(context: PullContext, repo: MockRepo, pull: MockPull): unknown {
  const full = `${repo.owner}/${repo.name}`;
  const headRepo = context.repoNamed(pull.headOwner, repo.name) ?? repo;
  const side = (owner: MockRepo, branch: string) => ({
    label: `${owner.owner}:${branch}`, ref: branch, sha: owner.branches.get(branch) ?? null, repo: { full_name: `${owner.owner}/${owner.name}`, fork: owner !== repo },
  });
  return {
    url: `${context.api}/repos/${full}/pulls/${pull.number}`,
    id: 1_000_000 + repo.id * 1000 + pull.number,
    node_id: `PR_mock${repo.id}_${pull.number}`,
    html_url: `${context.web}/${full}/pull/${pull.number}`,
    number: pull.number,
    state: pull.state,
    locked: false,
    title: pull.title,
    body: pull.body,
    draft: pull.draft,
    user: { login: pull.user },
    head: side(headRepo, pull.head),
    base: side(repo, pull.base),
  };
}

/** A fork as POST /forks answers it (202): the new repository, with its parent. */
export function forkBody(context: WriteContext, fork: MockRepo, parent: MockRepo): unknown {
  return { ...(repositoryBody(context.api, context.web, fork) as Record<string, unknown>), fork: true, parent: { full_name: `${parent.owner}/${parent.name}` } };
}

/** A fork's repository: its parent's objects and branches, owned by `login`. */
export function forkOf(parent: MockRepo, login: string, id: number): MockRepo {
  return {
    ...parent, id, owner: login,
    branches: new Map(parent.branches), tags: new Map(parent.tags),
    commits: new Map(parent.commits), trees: new Map(parent.trees), blobs: new Map(parent.blobs),
  };
}

/** GitHub's /user answer for a token's owner. */
export function userBody(context: WriteContext, grant: MockTokenGrant): unknown {
  return { login: grant.login, id: 5000, node_id: 'U_mock', type: 'User', site_admin: false, url: `${context.api}/users/${grant.login}`, html_url: `${context.web}/${grant.login}` };
}
