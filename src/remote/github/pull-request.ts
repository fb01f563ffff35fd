// The pull request a push ends with: opened from the pushed branch into the imported ref, or, when the branch was
// pushed before, the open one found by its head (and its title and body brought up to date), so a second push
// never opens a second pull request.
import type { Answer, GitHubClient } from './api';
import { UnexpectedAnswerError } from './errors';

export type PullRequestRef = { number: number; url: string };
/** `keepOpenText`: a pull request already open keeps its title and body (a push from the shell only adds commits). */
export type PullRequestText = { title: string; body: string; keepOpenText?: boolean };
export type PullRequestSides = { base: { owner: string; repo: string; ref: string }; head: { owner: string; branch: string; sameRepo: boolean } };

type PullAnswer = { number: number; html_url: string; title: string; body: string | null };
const WRITE_REFUSALS = [403, 404, 422];

/** The pull request for `sides`, opened or updated; `refused` turns a refused write into the error to throw. */
export async function openOrUpdatePull(
  client: GitHubClient, sides: PullRequestSides, text: PullRequestText, pushedBefore: boolean, refused: (answer: Answer) => Error,
): Promise<PullRequestRef & { opened: boolean }> {
  const open = pushedBefore ? await findOpenPull(client, sides) : null;
  if (open) return { ...(await updatePull(client, sides, open, text, refused)), opened: false };
  const base = `/repos/${encodeURIComponent(sides.base.owner)}/${encodeURIComponent(sides.base.repo)}`;
  const head = sides.head.sameRepo ? sides.head.branch : `${sides.head.owner}:${sides.head.branch}`;
  const answer = await client.write('POST', `${base}/pulls`, { title: text.title, body: text.body, head, base: sides.base.ref }, 'the new pull request', WRITE_REFUSALS);
  if (answer.status === 201) return { ...refOf(answer.body), opened: true };
  // GitHub keeps one open pull request per head and base: one already there (opened outside Conch) is this push's.
  if (answer.status === 422 && /already exists/i.test(JSON.stringify(answer.body))) {
    const found = await findOpenPull(client, sides);
    if (found) return { ...(await updatePull(client, sides, found, text, refused)), opened: false };
  }
  throw refused(answer);
}

async function findOpenPull(client: GitHubClient, sides: PullRequestSides): Promise<PullAnswer | null> {
  const base = `/repos/${encodeURIComponent(sides.base.owner)}/${encodeURIComponent(sides.base.repo)}`;
  const head = encodeURIComponent(`${sides.head.owner}:${sides.head.branch}`);
  const answer = await client.get(`${base}/pulls?head=${head}&state=open&base=${encodeURIComponent(sides.base.ref)}`, 'the open pull requests');
  if (!Array.isArray(answer.body)) throw new UnexpectedAnswerError('the open pull requests', 'not a list');
  const first = answer.body[0] as PullAnswer | undefined;
  return first && typeof first.number === 'number' ? first : null;
}

async function updatePull(client: GitHubClient, sides: PullRequestSides, pull: PullAnswer, text: PullRequestText, refused: (answer: Answer) => Error): Promise<PullRequestRef> {
  if (text.keepOpenText || (pull.title === text.title && (pull.body ?? '') === text.body)) return refOf(pull);
  const path = `/repos/${encodeURIComponent(sides.base.owner)}/${encodeURIComponent(sides.base.repo)}/pulls/${pull.number}`;
  const answer = await client.write('PATCH', path, { title: text.title, body: text.body }, `pull request #${pull.number}`, WRITE_REFUSALS);
  if (answer.status !== 200) throw refused(answer);
  return refOf(answer.body);
}

function refOf(body: unknown): PullRequestRef {
  const pull = body as Partial<PullAnswer> | null;
  if (typeof pull?.number !== 'number' || typeof pull.html_url !== 'string') throw new UnexpectedAnswerError('the pull request', 'no number or link');
  return { number: pull.number, url: pull.html_url };
}
