// `git push` from the sandbox's shell, on the page's side: the shell hands over the committed work since the import
// (the runtime's GitPushHost), and this asks the person, every time and in every approval mode, before it goes to
// the host the session was imported from through the same push as "Open pull request": a branch, a commit on it,
// and its pull or merge request, resumable, never by force. The shell then prints what happened.
import { branchNameFor } from '../../../remote/branch-name';
import type { FileChange } from '../../../remote';
import type { GitPushAnswer, GitPushHost, GitPushRequest } from '../../../runtime/types';
import type { RepoOrigin } from '../../../store';
import { errorText } from '../../error-text';
import type { SessionLibrary } from '../../library/library.svelte';
import type { Settings } from '../../settings/settings';
import { originUrl } from '../../workspace/baseline';
import { earlierPush } from '../pull-request/push-record';
import { sendToHost } from '../pull-request/send-to-host';

/** What the person is asked about one `git push`. */
export type ShellPushQuestion = {
  id: number;
  /** e.g. "github.com/octo/hello". */
  repo: string;
  branch: string;
  /** "pull request" or "merge request". */
  noun: string;
  message: string;
  files: { path: string; kind: FileChange['kind'] }[];
};

export type PendingShellPush = { question: ShellPushQuestion; answer(allow: boolean): void };

export type ShellPushDeps = {
  library: () => SessionLibrary | null;
  settings: () => Settings;
  /** The page's fetch (tests: Node's); default globalThis.fetch. */
  fetch?: typeof fetch;
};

export class ShellPush {
  /** Pushes waiting for the person's answer, in the order the shell asked. */
  pending = $state.raw<PendingShellPush[]>([]);
  private nextId = 1;

  constructor(private readonly deps: ShellPushDeps) {}

  /** The runtime's side of the conversation: hand this to the runtime as its `gitPush`. */
  readonly host: GitPushHost = (request, signal) => this.push(request, signal);

  answer(id: number, allow: boolean): void {
    this.pending.find((p) => p.question.id === id)?.answer(allow);
  }

  private async push(request: GitPushRequest, signal?: AbortSignal): Promise<GitPushAnswer> {
    const library = this.deps.library();
    const session = library?.current;
    const record = session ? await library.store.getSession(session.id) : undefined;
    const origin = record?.origin;
    if (!library || !session || !origin) {
      return refused('this session was not imported from GitHub or GitLab, so there is no repository to push to. Import the repo by URL ("From GitHub or GitLab"), or download the changes as a patch from the Changes tab.');
    }
    const home = originUrl(origin);
    if (!sameUrl(request.remoteUrl, home)) {
      return refused(`origin is ${request.remoteUrl}, but this session was imported from ${home}: Conch pushes only there (git remote set-url origin ${home}).`);
    }
    const branch = request.branch ?? earlierPush(record.pushRecord, origin)?.branch ?? branchNameFor(session.title);
    const noun = origin.host === 'gitlab' ? 'merge request' : 'pull request';
    if (branch === origin.ref) {
      return refused(`${branch} is the branch this session was imported from: push to a branch of its own (git push origin HEAD:conch/my-change), and a ${noun} into ${branch} is opened from it.`);
    }
    const message = request.message.trim() || session.title;
    const files = request.changes.map(({ path, kind }) => ({ path, kind }));
    const allowed = await this.ask({ repo: home.replace(/^https?:\/\//, ''), branch, noun, message, files }, signal);
    if (!allowed) return refused(signal?.aborted ? 'the command was stopped before the person answered; nothing was sent.' : 'the person declined the push; nothing was sent.');
    return this.send(library, session.id, origin, request.changes, { branch, message, noun }, signal);
  }

  private async send(
    library: SessionLibrary, sessionId: string, origin: RepoOrigin, changes: FileChange[], text: { branch: string; message: string; noun: string }, signal?: AbortSignal,
  ): Promise<GitPushAnswer> {
    const [title = '', ...rest] = text.message.split('\n');
    const body = `${rest.join('\n').trim()}\n\nPushed with git push from a Conch session.`.trim();
    let saving: Promise<unknown> = Promise.resolve();
    try {
      const stored = (await library.store.getSession(sessionId))?.pushRecord;
      const outcome = await sendToHost(origin, changes, { branch: text.branch, message: text.message, title, body, keepOpenText: true }, {
        fetch: this.deps.fetch ?? ((...args) => globalThis.fetch(...args)),
        settings: this.deps.settings(),
        stored,
        signal,
        onStored: (record) => {
          saving = saving.then(() => library.store.updateSession(sessionId, { pushRecord: record }));
        },
      });
      await saving;
      const done = outcome.opened ? 'opened' : 'updated';
      return { pushed: true, branch: text.branch, lines: [`${capitalized(text.noun)} #${outcome.number} ${done}: ${outcome.url}`] };
    } catch (error) {
      await saving.catch(() => undefined);
      const kind = (error as { kind?: unknown }).kind;
      const more =
        kind === 'cannot-push' ? ' To push into a fork instead, use "Open pull request" in the Changes tab.' :
        kind === 'branch-moved' ? ' "Open pull request" in the Changes tab can push on top after you confirm.' : '';
      return refused(`${errorText(error)}${more}`);
    }
  }

  /** Shows the question until the person answers, or the shell's command is stopped (a denial). */
  private ask(question: Omit<ShellPushQuestion, 'id'>, signal?: AbortSignal): Promise<boolean> {
    if (signal?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const pending: PendingShellPush = {
        question: { ...question, id: this.nextId++ },
        answer: (allow) => {
          signal?.removeEventListener('abort', onAbort);
          this.pending = this.pending.filter((p) => p !== pending);
          resolve(allow);
        },
      };
      const onAbort = () => pending.answer(false);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending = [...this.pending, pending];
    });
  }
}

const refused = (message: string): GitPushAnswer => ({ pushed: false, message });
const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const sameUrl = (a: string, b: string) => a.trim().replace(/(\.git)?\/*$/, '').toLowerCase() === b.replace(/\/*$/, '').toLowerCase();
