// Why a GitHub import (or a push, push-errors.ts) failed, each written for the person: what happened and what to do. `kind` tells them apart
// for the UI (an exhaustive switch); nothing of the session or workspace has changed when one is thrown. A
// cancelled import throws the store's ImportCancelledError, as a cancelled zip import does.
import { clockTime } from '../local-time';

export type GitHubErrorKind =
  | 'rate-limit'
  | 'secondary-limit'
  | 'repo-not-found'
  | 'ref-not-found'
  | 'folder-not-found'
  | 'empty-repo'
  | 'bad-token'
  | 'forbidden'
  | 'offline'
  | 'too-large'
  | 'unsafe-path'
  | 'corrupt'
  | 'unexpected'
  // A push's (push-errors.ts):
  | 'cannot-push'
  | 'missing-permission'
  | 'branch-moved'
  | 'branch-exists'
  | 'nothing-to-push';

export abstract class GitHubError extends Error {
  abstract readonly kind: GitHubErrorKind;
}

/** The hour's requests are used up; `resetAt` is when GitHub allows more. */
export class RateLimitError extends GitHubError {
  override readonly name = 'RateLimitError';
  override readonly kind = 'rate-limit';
  constructor(readonly resetAt: Date, withToken: boolean) {
    super(
      `GitHub's rate limit is used up until ${clockTime(resetAt)} (local time). ` +
        (withToken ? 'Try again then.' : 'Add a token in Settings to raise it to 5,000 requests an hour.'),
    );
  }
}

/** GitHub asked to slow down for longer than an import waits. */
export class SecondaryLimitError extends GitHubError {
  override readonly name = 'SecondaryLimitError';
  override readonly kind = 'secondary-limit';
  constructor(readonly retryAfterSeconds: number) {
    super(`GitHub asked Conch to slow down (a secondary rate limit): try again in ${waitText(retryAfterSeconds)}.`);
  }
}

export class RepoNotFoundError extends GitHubError {
  override readonly name = 'RepoNotFoundError';
  override readonly kind = 'repo-not-found';
  constructor(fullName: string, withToken: boolean) {
    super(
      withToken
        ? `${fullName} was not found, or the token in Settings cannot read it: give it Contents: read on this repository.`
        : `${fullName} was not found, or it is private: add a token with Contents: read in Settings.`,
    );
  }
}

export class RefNotFoundError extends GitHubError {
  override readonly name = 'RefNotFoundError';
  override readonly kind = 'ref-not-found';
  constructor(fullName: string, readonly ref: string, slashed: boolean) {
    super(
      `${fullName} has no branch, tag or commit ${slashed ? `that "${ref}" starts with` : `"${ref}"`}. ` +
        'Check the name on GitHub, or leave it out to import the default branch.',
    );
  }
}

export class FolderNotFoundError extends GitHubError {
  override readonly name = 'FolderNotFoundError';
  override readonly kind = 'folder-not-found';
  constructor(fullName: string, ref: string, readonly folder: string) {
    super(`${fullName} has no folder "${folder}" at ${ref}. Check the address, or import the whole repository.`);
  }
}

export class EmptyRepoError extends GitHubError {
  override readonly name = 'EmptyRepoError';
  override readonly kind = 'empty-repo';
  constructor(fullName: string) {
    super(`${fullName} is empty: it has no commits to import.`);
  }
}

export class BadTokenError extends GitHubError {
  override readonly name = 'BadTokenError';
  override readonly kind = 'bad-token';
  constructor() {
    super('GitHub refused the token in Settings (bad credentials): check it there (it may have expired or been revoked); without one, only public repositories can be imported.');
  }
}

export class ForbiddenError extends GitHubError {
  override readonly name = 'ForbiddenError';
  override readonly kind = 'forbidden';
  constructor(what: string, message: string) {
    super(`GitHub refused ${what}: ${message} Check the token's permissions (Contents: read) in Settings.`);
  }
}

export class OfflineError extends GitHubError {
  override readonly name = 'OfflineError';
  override readonly kind = 'offline';
  constructor(options?: { cause?: unknown }) {
    super('GitHub could not be reached: you may be offline.', options);
  }
}

/** The repository is over the import limits (files or bytes); nothing was fetched but its listing. */
export class RepoTooLargeError extends GitHubError {
  override readonly name = 'RepoTooLargeError';
  override readonly kind = 'too-large';
}

/** A path that could write outside the workspace, or into `.git`. */
export class UnsafePathError extends GitHubError {
  override readonly name = 'UnsafePathError';
  override readonly kind = 'unsafe-path';
  constructor(readonly path: string, reason: string) {
    super(`GitHub listed "${path}", which ${reason}. Nothing was imported.`);
  }
}

/** A file's bytes do not match its git id: damaged on the way, or not what the repository holds. */
export class CorruptFileError extends GitHubError {
  override readonly name = 'CorruptFileError';
  override readonly kind = 'corrupt';
  constructor(readonly path: string) {
    super(`"${path}" arrived damaged (its bytes do not match GitHub's id for it). Nothing was imported; try again.`);
  }
}

/** Any other answer GitHub should not have given; the text names the request and the status. */
export class UnexpectedAnswerError extends GitHubError {
  override readonly name = 'UnexpectedAnswerError';
  override readonly kind = 'unexpected';
  constructor(what: string, detail: string, readonly status?: number) {
    super(`GitHub answered ${what} unexpectedly (${detail}). Try again later.`);
  }
}

export { clockTime };

function waitText(seconds: number): string {
  const whole = Math.max(1, Math.ceil(seconds));
  if (whole === 1) return 'a second';
  return whole < 90 ? `${whole} seconds` : `${Math.ceil(whole / 60)} minutes`;
}
