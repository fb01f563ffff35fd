// Throttled saving of subagent tasks. A running task changes many times a second (each streamed message, each tool
// call) and every change is its whole entry, so only the latest per task is kept and handed on at most every
// `minIntervalMs` (about 2 writes a second); a change that ends the task is handed on at once, so the final version
// is always written. `flush` hands on everything pending (a run's end, the page going away).
import type { TaskEntry } from '../../ai/types';

export type TaskWritesOptions = {
  /** Writes the task (the session's persistence queue); the latest handed on wins. */
  write(task: TaskEntry): void;
  minIntervalMs?: number;
  now?: () => number;
  /** Hears that a change started or stopped waiting for its turn (the save status says "saving" meanwhile). */
  onWaitingChange?: () => void;
};

export class TaskWrites {
  private readonly minIntervalMs: number;
  private readonly now: () => number;
  private readonly pending = new Map<string, TaskEntry>();
  private readonly lastWrite = new Map<string, number>();
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(private readonly options: TaskWritesOptions) {
    this.minIntervalMs = options.minIntervalMs ?? 500;
    this.now = options.now ?? Date.now;
  }

  /** Whether some change is waiting for its interval to pass. */
  get waiting(): boolean {
    return this.pending.size > 0;
  }

  /** Task `task.toolCallId` is now `task`: written within the interval, or at once when it has ended. */
  changed(task: TaskEntry): void {
    const id = task.toolCallId;
    const wasWaiting = this.waiting;
    this.pending.set(id, task);
    if (!wasWaiting) this.options.onWaitingChange?.();
    if (task.status !== 'queued' && task.status !== 'running') return this.writeNow(id);
    if (this.timers.has(id)) return;
    const at = (this.lastWrite.get(id) ?? -Infinity) + this.minIntervalMs;
    const delay = at - this.now();
    if (delay <= 0) return this.writeNow(id);
    this.timers.set(id, setTimeout(() => this.writeNow(id), delay));
  }

  /** Hands on every pending task now, ignoring the interval. */
  flush(): void {
    for (const id of [...this.pending.keys()]) this.writeNow(id);
  }

  /** Stops the timers without writing (the session was closed: flushed first when it was left, not when deleted). */
  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.pending.clear();
  }

  private writeNow(id: string): void {
    const timer = this.timers.get(id);
    if (timer !== undefined) clearTimeout(timer);
    this.timers.delete(id);
    const task = this.pending.get(id);
    if (!task) return;
    this.pending.delete(id);
    this.lastWrite.set(id, this.now());
    this.options.write(task);
    if (!this.waiting) this.options.onWaitingChange?.();
  }
}
