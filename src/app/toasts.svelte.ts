// One place for transient outcomes (an import finished, an export failed): shown in the page's toast area, gone by
// themselves after a while unless they are errors, which stay until the person dismisses them. A new outcome of the
// same kind (`key`) replaces the previous one instead of stacking up.

export type ToastKind = 'success' | 'info' | 'error';

export type Toast = {
  id: number;
  kind: ToastKind;
  text: string;
  /** Outcomes of one kind of action share a key; the newest replaces the older. */
  key?: string;
  /** The data-testid the toast carries (import-result, import-error, transfer-result, …). */
  testId?: string;
};

/** How long a success or info toast stays (paused while the pointer or the focus is on it). */
export const TOAST_MS = 8000;

type Timers = {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
};

const realTimers: Timers = {
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** The toasts on screen, newest last. */
export class Toasts {
  items = $state<Toast[]>([]);
  private serial = 0;
  private readonly timers = new Map<number, unknown>();

  constructor(private readonly clock: Timers = realTimers) {}

  /** Shows an outcome; errors stay until dismissed, the rest leave after TOAST_MS. Returns its id. */
  show(toast: Omit<Toast, 'id'>): number {
    const id = ++this.serial;
    const replaced = toast.key ? this.items.filter((t) => t.key === toast.key) : [];
    for (const old of replaced) this.stopTimer(old.id);
    this.items = [...this.items.filter((t) => !replaced.includes(t)), { ...toast, id }];
    this.resume(id);
    return id;
  }

  dismiss(id: number): void {
    this.stopTimer(id);
    this.items = this.items.filter((t) => t.id !== id);
  }

  /** Keeps a toast while the person reads it (pointer over it, or focus in it). */
  pause(id: number): void {
    this.stopTimer(id);
  }

  /** Starts (again) the countdown of a success or info toast. */
  resume(id: number): void {
    const toast = this.items.find((t) => t.id === id);
    if (!toast || toast.kind === 'error') return;
    this.stopTimer(id);
    this.timers.set(id, this.clock.set(() => this.dismiss(id), TOAST_MS));
  }

  private stopTimer(id: number): void {
    const handle = this.timers.get(id);
    if (handle !== undefined) this.clock.clear(handle);
    this.timers.delete(id);
  }
}
