// An import from GitHub (or, once its source is wired, GitLab) by address, as the sidebar's field runs it: the
// address read, the files listed and fetched with progress in files and bytes, cancel, and the files then imported
// into the open session like a zip (workspace and baseline, replaced only when everything succeeded). A `?repo=` link
// only fills the field and asks for confirmation: nothing is fetched before the person confirms.
import { errorText } from '../../error-text';
import { timed } from '../../user-timing';
import type { SessionLibrary } from '../../library/library.svelte';
import type { Toasts } from '../../toasts.svelte';
import { isCancel } from '../../workspace/import-outcome';
import type { HostSettings } from './sources';

// The clients load with the first import or link, not with the page.
const sources = () => import('./sources');

export type HostImportPhase = 'idle' | 'listing' | 'fetching' | 'done' | 'failed' | 'cancelled';

/** What a `?repo=` link asks to import, for its confirm card. */
export type PendingLink = { host: 'GitHub' | 'GitLab'; repo: string; ref: string; withToken: boolean };

export type HostImportDeps = {
  settings: () => HostSettings;
  /** The page's fetch (tests: Node's); default globalThis.fetch. */
  fetch?: typeof fetch;
  toasts?: () => Toasts;
};

export class HostImport {
  url = $state('');
  phase = $state<HostImportPhase>('idle');
  files = $state(0);
  totalFiles = $state(0);
  bytes = $state(0);
  totalBytes = $state(0);
  /** The failure, written for the person (what to do next). */
  error = $state('');
  /** The last success, with one line per entry left out. */
  result = $state<{ message: string; leftOut: string[] } | null>(null);
  link = $state<PendingLink | null>(null);
  private controller: AbortController | null = null;

  constructor(private readonly deps: HostImportDeps) {}

  get running(): boolean {
    return this.phase === 'listing' || this.phase === 'fetching';
  }

  /** Fills the field from a `?repo=` link's value and shows its confirm card; fetches nothing from the host. */
  async openLink(value: string): Promise<void> {
    this.url = value;
    const { importSourceFor, readRepoAddress } = await sources();
    const parsed = readRepoAddress(value, this.deps.settings());
    if (!parsed.ok) {
      this.fail(parsed.error);
      return;
    }
    const { location } = parsed;
    const source = importSourceFor(location.host, this.deps.settings(), this.fetchFn);
    this.link = {
      host: location.host === 'github' ? 'GitHub' : 'GitLab',
      repo: `${location.owner}/${location.repo}`,
      ref: location.treePath.join('/') || 'the default branch',
      withToken: source.withToken,
    };
  }

  /** The person confirmed the link's card: imports it. */
  async confirmLink(library: SessionLibrary): Promise<void> {
    this.link = null;
    await this.start(library);
  }

  dismissLink(): void {
    this.link = null;
  }

  /** Imports the address in the field into `library`'s open session; the outcome is told in `phase`. */
  async start(library: SessionLibrary): Promise<void> {
    if (this.running) return;
    this.link = null;
    Object.assign(this, { files: 0, totalFiles: 0, bytes: 0, totalBytes: 0, error: '', result: null });
    this.phase = 'listing';
    const controller = new AbortController();
    this.controller = controller;
    try {
      const { importSourceFor, leftOutLine, originBaselineName, readRepoAddress } = await sources();
      const parsed = readRepoAddress(this.url, this.deps.settings());
      if (!parsed.ok) throw new Error(parsed.error);
      const source = importSourceFor(parsed.location.host, this.deps.settings(), this.fetchFn);
      // A count per file arrives 2,000 times in a few seconds: the page shows the latest at most every 100 ms.
      const progress = throttled<Partial<HostImport>>(100, (shown) => Object.assign(this, shown));
      const fetched = await timed('host-fetch', () => source.fetch(parsed.location, {
        signal: controller.signal,
        onProgress: (p) => {
          if (p.phase === 'listing') this.phase = 'listing';
          else progress.show({ phase: 'fetching', files: p.files, totalFiles: p.totalFiles, bytes: p.bytes, totalBytes: p.totalBytes });
        },
      })).finally(() => progress.flush());
      const name = originBaselineName(fetched.origin);
      const imported = await timed('host-import', () => library.transfer.importRepo({ kind: 'host', name, entries: fetched.entries, origin: fetched.origin }, { signal: controller.signal }));
      const files = `${imported.files.toLocaleString('en')} ${imported.files === 1 ? 'file' : 'files'}`;
      const { owner, repo, ref, sha } = fetched.origin;
      this.result = { message: `Imported ${owner}/${repo} at ${ref} (${sha.slice(0, 7)}): ${files}.`, leftOut: fetched.leftOut.map(leftOutLine) };
      this.phase = 'done';
      this.deps.toasts?.().show({ kind: 'success', text: [this.result.message, ...this.result.leftOut].join('\n'), key: 'repo-import', testId: 'import-result' });
    } catch (error) {
      if (isCancel(error)) {
        this.phase = 'cancelled';
        this.error = '';
      } else {
        this.fail(errorText(error));
      }
    } finally {
      this.controller = null;
    }
  }

  cancel(): void {
    this.controller?.abort();
  }

  private fail(message: string): void {
    this.error = message;
    this.phase = 'failed';
  }

  private get fetchFn(): typeof fetch {
    return this.deps.fetch ?? ((...args) => globalThis.fetch(...args));
  }
}

/** `apply` the latest value at most every `ms`; `flush` applies one still waiting. */
function throttled<T>(ms: number, apply: (value: T) => void): { show(value: T): void; flush(): void } {
  let waiting: { value: T } | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (waiting) apply(waiting.value);
    waiting = null;
  };
  return {
    show(value) {
      waiting = { value };
      timer ??= setTimeout(flush, ms);
    },
    flush,
  };
}
