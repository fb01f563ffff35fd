// "Open pull request" (GitHub) or "Open merge request" (GitLab) in the Changes tab, for a session imported from that
// host: the form's fields with their defaults (the branch from the title, the commit message listing the changed
// files), "Draft with the model", the push itself, and the two ways on that need the person: a fork when the token
// cannot push, a confirmation when someone else moved the branch.
//
// The push's record goes into the session's record as each step makes something, so a push again (or a retry after
// a failure) continues the same branch and request; nothing else of the session or the workspace changes.
import { errorText } from '../../error-text';
import type { StreamFn } from '../../../ai/types';
import type { SessionLibrary } from '../../library/library.svelte';
import { branchNameFor } from '../../../remote/branch-name';
import type { RepoName } from '../../../remote';
import type { RepoOrigin, StoredPushRecord } from '../../../store';
import type { Settings } from '../../settings/settings';
import { resolveModel } from '../../settings/model-choice';
import { changesToSend, defaultMessage } from './changes-to-send';
import { draftPullRequest } from './draft';
import { earlierPush } from './push-record';
import { forkOrigin, sendToHost, type PushOutcome } from './send-to-host';

export type PullRequestDeps = {
  library: () => SessionLibrary | null;
  settings: () => Settings;
  /** Reads a workspace file's bytes as they are now. */
  readFile: (path: string) => Promise<Uint8Array>;
  /** The page's fetch (tests: Node's); default globalThis.fetch. */
  fetch?: typeof fetch;
  /** The provider adapters (tests: a scripted one); default the real ones, loaded on first use. */
  streamFn?: StreamFn;
  /** The first wait while GitHub makes a fork; default 1 s. */
  forkWaitMs?: number;
};

export type PullRequestBusy = 'drafting' | 'pushing' | 'forking' | null;

export class PullRequestForm {
  /** Where the open session was imported from; null when it was not imported from a host. */
  origin = $state.raw<RepoOrigin | null>(null);
  /** The form is shown. */
  shown = $state(false);
  branch = $state('');
  message = $state('');
  title = $state('');
  body = $state('');
  busy = $state<PullRequestBusy>(null);
  /** The last push's request, opened or updated. */
  result = $state.raw<PushOutcome | null>(null);
  /** Why the last action failed, written for the person (what to do next). */
  error = $state('');
  /** The token cannot push to the origin: forking it is offered. */
  forkOffered = $state(false);
  /** Someone else pushed to the branch: pushing on top takes a confirmation. */
  branchMoved = $state(false);
  private stored: StoredPushRecord | undefined;
  private fork: RepoName | undefined;
  /** The imported commit's executables among the files pushed so far, learned once per session on screen. */
  private executables = new Map<string, boolean>();
  private sessionId: string | null = null;

  constructor(private readonly deps: PullRequestDeps) {}

  /** "Open pull request" or "Open merge request", after the origin's host. */
  get label(): string {
    return this.origin?.host === 'gitlab' ? 'Open merge request' : 'Open pull request';
  }

  /** What the request is called on the origin's host. */
  get noun(): string {
    return this.origin?.host === 'gitlab' ? 'Merge request' : 'Pull request';
  }

  /** Reads the open session's origin and push record; a session switch resets the form. */
  async load(): Promise<void> {
    const library = this.deps.library();
    const id = library?.current?.id ?? null;
    const record = id ? await library?.store.getSession(id) : undefined;
    if (id !== this.sessionId) this.reset();
    this.sessionId = id;
    this.origin = record?.origin ?? null;
    this.stored = record?.pushRecord;
  }

  /** Shows the form with its defaults for the listed changes (an earlier push's branch, if the session made one). */
  async show(): Promise<void> {
    await this.load();
    const library = this.deps.library();
    if (!library?.current || !this.origin) return;
    const sessionTitle = library.current.title;
    const { changes } = await library.transfer.changes();
    const earlier = earlierPush(this.stored, this.origin);
    this.branch = earlier?.branch ?? branchNameFor(sessionTitle);
    this.message = defaultMessage(sessionTitle, changes);
    this.title ||= sessionTitle;
    this.shown = true;
  }

  hide(): void {
    this.shown = false;
  }

  /** Fills the title and body with the session's model, from its transcript and the changed files: one request. */
  async draft(): Promise<void> {
    const library = this.deps.library();
    if (!library?.current || this.busy) return;
    this.busy = 'drafting';
    this.error = '';
    try {
      const settings = this.deps.settings();
      const model = resolveModel(settings);
      const streamFn = this.deps.streamFn ?? (await import('../../../ai/stream')).stream;
      const { changes } = await library.transfer.changes();
      const drafted = await draftPullRequest(library.current.messages, changes, { model, streamFn, apiKey: settings.apiKey });
      if (drafted.title) this.title = drafted.title;
      this.body = drafted.body;
    } catch (error) {
      this.error = errorText(error);
    } finally {
      this.busy = null;
    }
  }

  /** Pushes the workspace's changes and opens or updates the request; `overwrite` once the person confirmed. */
  async submit(options: { overwrite?: boolean } = {}): Promise<void> {
    const library = this.deps.library();
    const origin = this.origin;
    const id = library?.current?.id;
    if (!library || !origin || !id || this.busy) return;
    this.busy = 'pushing';
    Object.assign(this, { error: '', forkOffered: false, branchMoved: false });
    let saving: Promise<unknown> = Promise.resolve();
    try {
      // A git push from the shell may have pushed since the form was shown: continue from what it left.
      this.stored = (await library.store.getSession(id))?.pushRecord ?? this.stored;
      const listed = await library.transfer.changes();
      const changes = await changesToSend(listed.changes, this.deps.readFile);
      const text = { branch: this.branch.trim(), message: this.message.trim() || this.title, title: this.title.trim(), body: this.body };
      if (!text.branch) throw new Error('Name the branch to push to.');
      if (!text.title) throw new Error(`Give the ${this.noun.toLowerCase()} a title.`);
      this.result = await sendToHost(origin, changes, text, {
        fetch: this.fetchFn,
        settings: this.deps.settings(),
        stored: this.stored,
        fork: this.fork,
        executables: this.executables,
        overwrite: options.overwrite,
        onStored: (stored) => {
          this.stored = stored;
          saving = saving.then(() => library.store.updateSession(id, { pushRecord: stored }));
        },
      });
    } catch (error) {
      const kind = (error as { kind?: unknown }).kind;
      this.forkOffered = kind === 'cannot-push' && origin.host === 'github' && !this.fork;
      this.branchMoved = kind === 'branch-moved';
      this.error = errorText(error);
    } finally {
      await saving.catch((error: unknown) => {
        this.error ||= `What was pushed could not be kept with the session (${errorText(error)}); a push again may open a second ${this.noun.toLowerCase()}.`;
      });
      this.busy = null;
    }
  }

  /** The person chose to fork: forks the origin into the token's account, then pushes there and opens the request from it. */
  async forkAndSubmit(): Promise<void> {
    const origin = this.origin;
    if (!origin || this.busy) return;
    this.busy = 'forking';
    this.error = '';
    try {
      this.fork = await forkOrigin(origin, { fetch: this.fetchFn, settings: this.deps.settings(), firstWaitMs: this.deps.forkWaitMs });
      this.forkOffered = false;
    } catch (error) {
      this.error = errorText(error);
      return;
    } finally {
      this.busy = null;
    }
    await this.submit();
  }

  private reset(): void {
    Object.assign(this, { shown: false, title: '', body: '', result: null, error: '', forkOffered: false, branchMoved: false });
    this.fork = undefined;
    this.executables = new Map();
  }

  private get fetchFn(): typeof fetch {
    return this.deps.fetch ?? ((...args) => globalThis.fetch(...args));
  }
}
