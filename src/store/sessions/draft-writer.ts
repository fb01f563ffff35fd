// Throttled saving of the reply being streamed into the session's draft slot, so a reload finds it as interrupted.
// Deltas arrive many times a second; `update` only notes the latest partial (no copy, no I/O), and a timer writes
// it: at most once a second, at the latest 2 s after a change, and as soon as allowed once a tool call's
// arguments are complete (`soon`), since that is what a Continue needs. Writes never overlap, and `clear` waits for
// one in flight, so a late write can never bring back a draft that was cleared.
import type { AssistantMessage } from '../../ai/types';

export type DraftWriterOptions = {
  /** Saves the draft (SessionStore.saveDraft bound to the session). */
  save(draft: AssistantMessage): Promise<void>;
  /** Empties the slot (SessionStore.clearDraft bound to the session). */
  clear(): Promise<void>;
  minIntervalMs?: number;
  maxDelayMs?: number;
  /** Told when a write fails; the next change tries again. */
  onError?(error: unknown): void;
  now?: () => number;
};

export class DraftWriter {
  private readonly minIntervalMs: number;
  private readonly maxDelayMs: number;
  private readonly now: () => number;
  private pending: AssistantMessage | null = null;
  private pendingSince = 0;
  private lastWrite = -Infinity;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private timerAt = Infinity;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly options: DraftWriterOptions) {
    this.minIntervalMs = options.minIntervalMs ?? 1_000;
    this.maxDelayMs = options.maxDelayMs ?? 2_000;
    this.now = options.now ?? Date.now;
  }

  /** The reply grew: save it within `maxDelayMs`. Cheap enough to call on every delta. */
  update(draft: AssistantMessage): void {
    if (this.pending === null) this.pendingSince = this.now();
    this.pending = draft;
    this.schedule(Math.max(this.lastWrite + this.minIntervalMs, this.pendingSince + this.maxDelayMs));
  }

  /** The reply reached a point worth keeping at once (a tool call's arguments completed): save it as soon as allowed. */
  soon(draft: AssistantMessage): void {
    if (this.pending === null) this.pendingSince = this.now();
    this.pending = draft;
    this.schedule(Math.max(this.lastWrite + this.minIntervalMs, this.now()));
  }

  /** The reply completed (or was dropped): forget what is pending and empty the slot after any write in flight. */
  clear(): Promise<void> {
    this.cancelTimer();
    this.pending = null;
    const cleared = this.writing.then(() => this.options.clear());
    this.writing = cleared.catch((error: unknown) => this.options.onError?.(error));
    return cleared;
  }

  /** Writes what is pending now, ignoring the interval (before the page goes away); resolves when stored. */
  flush(): Promise<void> {
    this.cancelTimer();
    this.write();
    return this.writing;
  }

  /** Stops the timer without writing. */
  dispose(): void {
    this.cancelTimer();
    this.pending = null;
  }

  private schedule(at: number): void {
    if (this.timer !== null && this.timerAt <= at) return;
    this.cancelTimer();
    this.timerAt = at;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.timerAt = Infinity;
      this.write();
    }, Math.max(0, at - this.now()));
  }

  private write(): void {
    const draft = this.pending;
    if (draft === null) return;
    this.pending = null;
    this.lastWrite = this.now();
    // The provider keeps growing the same partial message: store a copy of it as it is now.
    const snapshot = { ...draft, content: draft.content.map((block) => ({ ...block })) };
    this.writing = this.writing.then(() => this.options.save(snapshot)).catch((error: unknown) => this.options.onError?.(error));
  }

  private cancelTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.timerAt = Infinity;
  }
}
