// Why a merge request to GitLab stopped, each written for the person: what GitLab refused and what to do. Nothing
// of the session or workspace changed; the record (merge-request.ts) holds what was pushed, so a retry continues.

export type MergeRequestErrorKind =
  | 'cannot-push'
  | 'bad-token'
  | 'branch-moved'
  | 'branch-exists'
  | 'nothing-to-push'
  | 'symlink'
  | 'offline'
  | 'unexpected';

export class MergeRequestError extends Error {
  override readonly name = 'MergeRequestError';
  constructor(readonly kind: MergeRequestErrorKind, message: string, readonly status?: number) {
    super(message);
  }
}

export const cannotPush = (project: string, what: 'push' | 'merge request') =>
  new MergeRequestError(
    'cannot-push',
    what === 'push'
      ? `The token in Settings cannot push to ${project}: it needs the api scope, and the Developer role (or higher) on the project. ` +
          'Give it those, or fork the project on GitLab and import the fork.'
      : `The branch is pushed, but the token cannot open a merge request on ${project}: it needs the api scope and the Developer role. Fix that, then push again.`,
  );

export const badToken = () =>
  new MergeRequestError('bad-token', 'GitLab refused the token in Settings (401): check it there; it needs the api scope to push.');

export const branchMoved = (branch: string, project: string) =>
  new MergeRequestError(
    'branch-moved',
    `The branch ${branch} on ${project} has commits this session did not push. Confirm to push on top of them anyway ` +
      '(their commits stay in its history), or choose another branch name.',
  );

export const branchExists = (branch: string, project: string) =>
  new MergeRequestError('branch-exists', `${project} already has a branch ${branch} that this session did not push: choose another branch name.`);

export const nothingToPush = () =>
  new MergeRequestError('nothing-to-push', 'No file differs from what was last pushed: there is nothing to push. Edit a file first.');

export const symlinkRefused = (path: string) =>
  new MergeRequestError('symlink', `GitLab's commits API cannot write symlinks, and "${path}" is one: remove it from the changes, or push it with git.`);

export const offline = () => new MergeRequestError('offline', 'GitLab could not be reached: you may be offline.');

export const unexpected = (what: string, status: number, message: string) =>
  new MergeRequestError('unexpected', `GitLab answered ${what} unexpectedly (${status}${message ? `: ${message}` : ''}). Try again later.`, status);
