// Opening a shared session from a `?session=<url>` (or `#session=`) link, as the confirm card runs it: the address
// checked (a refused one is told, and nothing is fetched), the size asked of the host, then on Open the file fetched
// with progress and a cancel, and imported through the very path a picked file takes (library.transfer's
// importSessionFile: the same validation, the same refusals, the same words). The imported session is opened in replay
// at step 1, and the link leaves the page's address so a reload does not import it again.
import { errorText } from '../error-text';
import type { SessionLibrary } from '../library/library.svelte';
import type { Toasts } from '../toasts.svelte';
import { isCancel, sessionImportFailure } from '../workspace/import-outcome';
import { readSessionLink, withoutSessionLink, type SessionLink } from '../../remote/session-link/session-link';
import { formatBytes } from '../../store/zip/repo-zip';
import { timed } from '../user-timing';

// The fetcher loads with Open's first use of it, not with the page.
const fetcher = () => import('../../remote/session-link/fetch-session-file');

export type LinkImportPhase = 'refused' | 'confirm' | 'fetching' | 'importing' | 'failed' | 'done';

/** The page's address, as the link import reads and rewrites it (tests: a fake). */
export type PageAddress = {
  href(): string;
  /** Replaces the address without a new history entry (history.replaceState). */
  replace(href: string): void;
  /** Sets the hash (`location.hash`), so whoever listens to hashchange hears it. */
  setHash(hash: string): void;
};

export type LinkImportDeps = {
  library: () => SessionLibrary | null;
  toasts?: () => Toasts;
  page: PageAddress;
  /** The page's fetch (tests: a fake); default globalThis.fetch. */
  fetch?: typeof fetch;
};

/** The hash the imported session opens with: replay, at its first step. */
export const REPLAY_FIRST_STEP = 'replay=1';

export class LinkImport {
  phase = $state<LinkImportPhase>('confirm');
  /** The checked address; null when the link was refused. */
  link = $state.raw<SessionLink | null>(null);
  /** The size the host told (HEAD, then the download's Content-Length); null while unknown. */
  size = $state<number | null>(null);
  /** Whether the host was asked for the size and has answered (or did not answer). */
  sizeAsked = $state(false);
  bytes = $state(0);
  /** Why the link cannot be opened, or why the import failed, in the words a file import uses where it is one. */
  error = $state('');
  private controller: AbortController | null = null;

  constructor(private readonly deps: LinkImportDeps) {}

  /** Reads the link's value and shows the card; only the size is asked of the host before the person confirms. */
  async show(value: string): Promise<void> {
    const read = readSessionLink(value);
    if (!read.ok) {
      this.error = read.error;
      this.phase = 'refused';
      return;
    }
    this.link = read.link;
    this.phase = 'confirm';
    const controller = new AbortController();
    this.controller = controller;
    try {
      const { probeSessionFile, sizeProblem } = await fetcher();
      const { size } = await probeSessionFile(read.link, { fetch: this.fetchFn, signal: controller.signal });
      if (this.phase !== 'confirm') return;
      this.size = size;
      const problem = sizeProblem(read.link, size);
      if (problem) this.fail(problem);
    } catch {
      // Cancelled while asking: the card is gone.
    } finally {
      this.sizeAsked = true;
      if (this.controller === controller) this.controller = null;
    }
  }

  /** The size as the card says it: known, not told, or being asked. */
  get sizeText(): string {
    if (this.size !== null) return formatBytes(this.size);
    return this.sizeAsked ? 'not told by the host' : 'asking the host…';
  }

  /** The download's progress in words, and as a percentage when the size is known (null: indeterminate). */
  get progress(): { text: string; percent: number | null } {
    if (this.phase === 'importing') return { text: 'Checking and importing…', percent: 100 };
    const of = this.size ? ` of ${formatBytes(this.size)}` : '';
    return { text: `Downloading ${formatBytes(this.bytes)}${of}…`, percent: this.size ? Math.min(100, Math.round((this.bytes / this.size) * 100)) : null };
  }

  get running(): boolean {
    return this.phase === 'fetching' || this.phase === 'importing';
  }

  /** Open: fetches the file and imports it as a new session, opened in replay at step 1. */
  async open(): Promise<void> {
    const library = this.deps.library();
    const link = this.link;
    if (!library || !link || this.running) return;
    this.controller?.abort();
    const controller = new AbortController();
    this.controller = controller;
    Object.assign(this, { phase: 'fetching', bytes: 0, error: '' });
    try {
      const { fetchSessionFile } = await fetcher();
      const data = await timed('link-fetch', () => fetchSessionFile(link, {
        fetch: this.fetchFn,
        signal: controller.signal,
        onProgress: ({ bytes, totalBytes }) => {
          this.bytes = bytes;
          if (totalBytes !== null) this.size = totalBytes;
        },
      }));
      if (controller.signal.aborted) throw new DOMException('Cancelled', 'AbortError');
      this.phase = 'importing';
      let record;
      try {
        record = await timed('link-import', () => library.transfer.importSessionFile(data));
      } catch (error) {
        this.fail(sessionImportFailure(link.fileName, error));
        return;
      }
      this.phase = 'done';
      this.leaveAddress();
      this.deps.page.setHash(REPLAY_FIRST_STEP);
      this.deps.toasts?.().show({ kind: 'success', text: `Imported “${record.importedFrom?.title || link.fileName}” from ${link.host} as a new session.`, testId: 'transfer-result', key: 'session-import' });
    } catch (error) {
      if (isCancel(error)) this.dismiss();
      else this.fail(errorText(error));
    } finally {
      if (this.controller === controller) this.controller = null;
    }
  }

  /**
   * Cancel: stops a download under way (nothing is imported) and closes the card. Once the file is being imported it
   * is too late: the import is the store's, all or nothing, and finishes.
   */
  cancel(): void {
    if (this.phase === 'importing') return;
    this.controller?.abort();
    this.dismiss();
  }

  private dismiss(): void {
    this.phase = 'done';
    this.leaveAddress();
  }

  /** The link leaves the address: a reload shows the page, not the card again. */
  private leaveAddress(): void {
    const href = this.deps.page.href();
    const next = withoutSessionLink(href);
    if (next !== href) this.deps.page.replace(next);
  }

  private fail(message: string): void {
    this.error = message;
    this.phase = 'failed';
  }

  private get fetchFn(): typeof fetch {
    return this.deps.fetch ?? ((...args) => globalThis.fetch(...args));
  }
}

/** The browser's address bar, for the link import. */
export function browserPageAddress(): PageAddress {
  return {
    href: () => location.href,
    replace: (href) => history.replaceState(history.state, '', href),
    setHash: (hash) => (location.hash = hash),
  };
}
