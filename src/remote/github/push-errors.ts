// Why a push to GitHub stopped, each written for the person: what GitHub refused and what to do. Nothing of the
// session or workspace changed; the push's record (push.ts) holds what was already made, so a retry continues.
import { GitHubError, UnexpectedAnswerError } from './errors';

export type RepoName = { owner: string; repo: string };
/** The token permissions a push needs, as GitHub's fine-grained token settings name them. */
export type PushPermission = 'Contents: write' | 'Pull requests: write' | 'Workflows';

const full = (repo: RepoName) => `${repo.owner}/${repo.repo}`;

/** The token may read the repository but not push to it: the way on is a fork (forkRepo), or a better token. */
export class CannotPushError extends GitHubError {
  override readonly name = 'CannotPushError';
  override readonly kind = 'cannot-push';
  readonly missing: PushPermission = 'Contents: write';
  constructor(readonly repo: RepoName) {
    super(
      `The token in Settings cannot push to ${full(repo)} (it lacks Contents: write there). ` +
        `Fork ${full(repo)} to your account and open the pull request from the fork, or give the token Contents: write.`,
    );
  }
}

/** The push went as far as it could; one permission is missing for the rest. */
export class MissingPermissionError extends GitHubError {
  override readonly name = 'MissingPermissionError';
  override readonly kind = 'missing-permission';
  constructor(readonly missing: Exclude<PushPermission, 'Contents: write'>, repo: RepoName, detail: string) {
    super(
      missing === 'Workflows'
        ? `GitHub refused the change to ${detail}: changing files under .github/workflows takes the token's Workflows ` +
            'permission (the "workflow" scope for a classic token). Give it that in Settings, or undo the change to that file.'
        : `The branch ${detail} is pushed, but the token cannot open a pull request on ${full(repo)}: give it ` +
            'Pull requests: write in Settings, then push again (what was pushed is kept).',
    );
  }
}

/** Someone else pushed to the branch since this session did; overwriting it takes the person's confirmation. */
export class BranchMovedError extends GitHubError {
  override readonly name = 'BranchMovedError';
  override readonly kind = 'branch-moved';
  constructor(readonly branch: string, repo: RepoName, readonly remoteHead: string) {
    super(
      `The branch ${branch} on ${full(repo)} has commits this session did not push${remoteHead ? ` (it now ends at ${remoteHead.slice(0, 7)})` : ''}. ` +
        'Confirm to push on top of them anyway (their commits stay in its history, its files become this session\'s), or choose another branch name.',
    );
  }
}

/** The branch name is taken by a branch this session did not make. */
export class BranchExistsError extends GitHubError {
  override readonly name = 'BranchExistsError';
  override readonly kind = 'branch-exists';
  constructor(readonly branch: string, repo: RepoName) {
    super(`${full(repo)} already has a branch ${branch} that this session did not push: choose another branch name.`);
  }
}

export class NothingToPushError extends GitHubError {
  override readonly name = 'NothingToPushError';
  override readonly kind = 'nothing-to-push';
  constructor() {
    super('No file differs from the imported commit: there is nothing to push. Edit a file first.');
  }
}

export type WriteStep = 'contents' | 'ref' | 'pulls';

/** The error a refused write (403, 404, 422) means, naming the permission missing for `step`. */
export function refusedWrite(answer: { status: number; body: unknown }, step: WriteStep, push: { target: RepoName; origin: RepoName; branch: string; workflows: string[] }): GitHubError {
  const message = messageIn(answer.body);
  if (/refus.*workflow/i.test(message)) return new MissingPermissionError('Workflows', push.target, /`([^`]+)`/.exec(message)?.[1] ?? push.workflows[0] ?? '.github/workflows');
  if (answer.status === 422 && /not a fast.forward/i.test(message)) return new BranchMovedError(push.branch, push.target, '');
  if (answer.status === 422 && step === 'ref' && /already exists/i.test(message)) return new BranchExistsError(push.branch, push.target);
  if (answer.status === 403 || answer.status === 404) {
    if (step === 'pulls') return new MissingPermissionError('Pull requests: write', push.origin, push.branch);
    // The blobs, tree and commit went in, so Contents: write is there: a refused ref with workflow changes is the
    // Workflows permission (GitHub checks it when a ref moves).
    if (step === 'ref' && push.workflows.length > 0) return new MissingPermissionError('Workflows', push.target, push.workflows[0]);
    return new CannotPushError(push.target);
  }
  const what = step === 'pulls' ? 'the pull request' : step === 'ref' ? `the branch ${push.branch}` : 'the pushed files';
  return new UnexpectedAnswerError(what, `${answer.status}${message ? `: ${message}` : ''}`, answer.status);
}

function messageIn(body: unknown): string {
  const error = body as { message?: unknown; errors?: { message?: unknown }[] } | null;
  const inner = Array.isArray(error?.errors) ? error.errors.map((e) => (typeof e?.message === 'string' ? e.message : '')).join(' ') : '';
  return `${typeof error?.message === 'string' ? error.message : ''} ${inner}`.trim();
}
