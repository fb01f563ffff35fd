// Why a GitLab import or token check failed, each written for the person: what happened and what to do. `kind`
// tells them apart for the UI (an exhaustive switch); nothing of the session or workspace has changed when one is
// thrown. The archive's own faults (over the limits, an unsafe path, damage) are the zip import's ZipImportError,
// with its messages; a cancelled import throws the store's ImportCancelledError, as a cancelled zip import does.
import { clockTime } from '../local-time';

export type GitLabErrorKind =
  | 'rate-limit'
  | 'project-not-found'
  | 'ref-not-found'
  | 'folder-not-found'
  | 'empty-project'
  | 'bad-token'
  | 'forbidden'
  | 'offline'
  | 'too-large'
  | 'unexpected';

export abstract class GitLabError extends Error {
  abstract readonly kind: GitLabErrorKind;
}

/** GitLab answered 429; `retryAt` is when it allows more, from Retry-After or RateLimit-Reset (a minute if neither). */
export class RateLimitError extends GitLabError {
  override readonly name = 'RateLimitError';
  override readonly kind = 'rate-limit';
  constructor(readonly retryAt: Date, withToken: boolean) {
    super(
      `GitLab is limiting requests (429 Too Many Requests): try again at ${clockTime(retryAt)} (local time).` +
        (withToken ? '' : ' A GitLab token in Settings raises the limit.'),
    );
  }
}

export class ProjectNotFoundError extends GitLabError {
  override readonly name = 'ProjectNotFoundError';
  override readonly kind = 'project-not-found';
  constructor(fullPath: string, withToken: boolean) {
    super(
      withToken
        ? `${fullPath} was not found, or the GitLab token in Settings cannot read it: give it read_api (or read_repository) and access to this project.`
        : `${fullPath} was not found, or it is private: add a GitLab token with read_api (or read_repository) in Settings.`,
    );
  }
}

export class RefNotFoundError extends GitLabError {
  override readonly name = 'RefNotFoundError';
  override readonly kind = 'ref-not-found';
  constructor(fullPath: string, readonly ref: string, slashed: boolean) {
    super(
      `${fullPath} has no branch, tag or commit ${slashed ? `that "${ref}" starts with` : `"${ref}"`}. ` +
        'Check the name on GitLab, or leave it out to import the default branch.',
    );
  }
}

export class FolderNotFoundError extends GitLabError {
  override readonly name = 'FolderNotFoundError';
  override readonly kind = 'folder-not-found';
  constructor(fullPath: string, ref: string, readonly folder: string) {
    super(`${fullPath} has no folder "${folder}" at ${ref}. Check the address, or import the whole project.`);
  }
}

export class EmptyProjectError extends GitLabError {
  override readonly name = 'EmptyProjectError';
  override readonly kind = 'empty-project';
  constructor(fullPath: string) {
    super(`${fullPath} is empty: its repository has no commits to import.`);
  }
}

export class BadTokenError extends GitLabError {
  override readonly name = 'BadTokenError';
  override readonly kind = 'bad-token';
  constructor() {
    super('GitLab refused the token in Settings (401 Unauthorized): check it there, or remove it to import a public project.');
  }
}

export class ForbiddenError extends GitLabError {
  override readonly name = 'ForbiddenError';
  override readonly kind = 'forbidden';
  constructor(what: string, message: string) {
    super(`GitLab refused ${what} (${message}). Check that the token in Settings has read_api (or read_repository).`);
  }
}

export class OfflineError extends GitLabError {
  override readonly name = 'OfflineError';
  override readonly kind = 'offline';
  constructor(options?: { cause?: unknown }) {
    super('GitLab could not be reached: you may be offline.', options);
  }
}

/** The archive grew past what a project within the import limits can weigh; the download was stopped. */
export class ArchiveTooLargeError extends GitLabError {
  override readonly name = 'ArchiveTooLargeError';
  override readonly kind = 'too-large';
}

/** Any other answer GitLab should not have given; the text names the request and the status. */
export class UnexpectedAnswerError extends GitLabError {
  override readonly name = 'UnexpectedAnswerError';
  override readonly kind = 'unexpected';
  constructor(what: string, detail: string, readonly status?: number) {
    super(`GitLab answered ${what} unexpectedly (${detail}). Try again later.`);
  }
}
