// The Storage part of settings: what each session holds in browser storage (and what only it holds, the space its
// deletion or its checkpoints' would free), and freeing space by dropping a session's old checkpoints after the
// person confirmed. Components call it as `library.storage`.
import { errorText } from '../../ai/messages';
import type { SessionStore, SessionUsage } from '../../store';

/** Checkpoints "Free space" keeps: the newest ones, which a person is most likely to go back to. */
export const KEPT_CHECKPOINTS = 3;

/** A free-space action waiting for the person's confirmation. */
export type PendingFree = { id: string; title: string; dropping: number };

/** Per-session storage figures and the free-space action. */
export class StorageView {
  /** Per session, largest unique use first; null until loaded. */
  sessions = $state.raw<SessionUsage[] | null>(null);
  loading = $state(false);
  pending = $state.raw<PendingFree | null>(null);
  /** What the last free-space action did, for the person. */
  result = $state<string | null>(null);
  error = $state<string | null>(null);

  constructor(private readonly store: Pick<SessionStore, 'storageUsage' | 'dropCheckpoints' | 'collectGarbage'>) {}

  /** Reads the figures again. */
  async load(): Promise<void> {
    this.loading = true;
    try {
      this.sessions = await this.store.storageUsage();
      this.error = null;
    } catch (error) {
      this.error = `Storage use could not be read: ${errorText(error)}`;
    } finally {
      this.loading = false;
    }
  }

  /** Asks to drop the old checkpoints of session `id` (all but the newest KEPT_CHECKPOINTS). */
  askToFree(id: string): void {
    const session = this.sessions?.find((s) => s.id === id);
    if (!session || session.checkpoints <= KEPT_CHECKPOINTS) return;
    this.result = null;
    this.pending = { id, title: session.title || 'New session', dropping: session.checkpoints - KEPT_CHECKPOINTS };
  }

  cancel(): void {
    this.pending = null;
  }

  /** Drops the checkpoints asked about, collects what only they held, and says how much was freed. */
  async confirm(): Promise<void> {
    const pending = this.pending;
    this.pending = null;
    if (!pending) return;
    const before = this.uniqueBytesOf(pending.id);
    try {
      const dropped = await this.store.dropCheckpoints(pending.id, KEPT_CHECKPOINTS);
      await this.store.collectGarbage();
      await this.load();
      const freed = Math.max(0, before - this.uniqueBytesOf(pending.id));
      this.result = `Dropped ${dropped.length} old checkpoint${dropped.length === 1 ? '' : 's'} of “${pending.title}”, freeing ${formatSize(freed)}.`;
    } catch (error) {
      this.error = `Could not free space: ${errorText(error)}`;
    }
  }

  private uniqueBytesOf(id: string): number {
    return this.sessions?.find((s) => s.id === id)?.uniqueBytes ?? 0;
  }
}

/** Bytes for people: KB, MB or GB with one decimal. */
export function formatSize(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024).toFixed(1)} KB`;
}
