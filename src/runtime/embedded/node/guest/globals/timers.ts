// The guest's event loop queue: timers, immediates and the nextTick queue. The engine asks how long until the next
// timer (nextDelay) and runs what is due (runDue); unref'd timers do not keep the process alive, as in Node.

import { host } from '../host';

type Callback = (...args: unknown[]) => void;

/** A timer handle, with Node's Timeout methods. */
export class Timeout {
  private static nextId = 1;
  readonly id = Timeout.nextId++;
  refed = true;
  due: number;
  cleared = false;

  constructor(
    readonly callback: Callback,
    readonly delay: number,
    readonly args: unknown[],
    readonly repeat: boolean,
    readonly immediate: boolean,
  ) {
    this.due = host.now() + delay;
  }
  ref(): this {
    this.refed = true;
    return this;
  }
  unref(): this {
    this.refed = false;
    return this;
  }
  hasRef(): boolean {
    return this.refed;
  }
  refresh(): this {
    this.due = host.now() + this.delay;
    return this;
  }
  close(): this {
    this.cleared = true;
    return this;
  }
  [Symbol.toPrimitive](): number {
    return this.id;
  }
}

const pending = new Map<number, Timeout>();

/** Work the loop waits on besides timers (child processes): `alive` keeps the process running, `ready` means `run` has work now. */
export type LoopSource = { alive(): boolean; ready(): boolean; run(): void };
const sources: LoopSource[] = [];

/** Adds a source of events to the loop. */
export function addLoopSource(source: LoopSource): void {
  sources.push(source);
}
let onError: (error: unknown) => void = (error) => {
  throw error;
};

/** Where an exception thrown by a timer callback goes (process's uncaught-exception path). */
export function setTimerErrorHandler(handler: (error: unknown) => void): void {
  onError = handler;
}

function schedule(callback: unknown, delay: unknown, args: unknown[], repeat: boolean, immediate: boolean): Timeout {
  if (typeof callback !== 'function') {
    const error = new TypeError(`The "callback" argument must be of type function. Received ${typeof callback}`) as TypeError & { code: string };
    error.code = 'ERR_INVALID_ARG_TYPE';
    throw error;
  }
  let ms = Number(delay);
  if (!(ms >= 1 && ms <= 2 ** 31 - 1)) ms = immediate ? 0 : 1;
  const timer = new Timeout(callback as Callback, immediate ? 0 : ms, args, repeat, immediate);
  pending.set(timer.id, timer);
  return timer;
}

function clear(timer: unknown): void {
  if (timer == null) return;
  const id = typeof timer === 'object' ? (timer as Timeout).id : Number(timer);
  const found = pending.get(id);
  if (found) found.cleared = true;
  pending.delete(id);
}

export const timers = {
  setTimeout: (callback: unknown, delay?: unknown, ...args: unknown[]) => schedule(callback, delay, args, false, false),
  setInterval: (callback: unknown, delay?: unknown, ...args: unknown[]) => schedule(callback, delay, args, true, false),
  setImmediate: (callback: unknown, ...args: unknown[]) => schedule(callback, 0, args, false, true),
  clearTimeout: clear,
  clearInterval: clear,
  clearImmediate: clear,
};

/** ms until the next ref'd timer is due: 0 when one is due, -1 when none keeps the process alive. */
export function nextDelay(): number {
  let earliest = Infinity;
  let anyRefed = false;
  for (const source of sources) {
    if (source.ready()) return 0;
    if (source.alive()) anyRefed = true; // waits without a deadline: the host wakes the engine when it has an event
  }
  for (const timer of pending.values()) {
    if (!timer.refed) continue;
    anyRefed = true;
    if (timer.due < earliest) earliest = timer.due;
  }
  if (!anyRefed) return -1;
  return Math.max(0, Math.ceil(earliest - host.now()));
}

/**
 * Runs one due callback, in the order of Node's loop phases: due timers first (earliest first), then immediates.
 * The engine drains promise jobs between two calls.
 */
export function runDue(): void {
  for (const source of sources) {
    if (!source.ready()) continue;
    try {
      source.run();
    } catch (error) {
      onError(error);
    }
    return;
  }
  const now = host.now();
  let next: Timeout | undefined;
  for (const timer of pending.values()) {
    if (timer.due > now) continue;
    if (!next || (next.immediate && !timer.immediate) || (timer.immediate === next.immediate && timer.due < next.due)) next = timer;
  }
  if (!next) return;
  if (next.repeat) next.due = now + next.delay;
  else pending.delete(next.id);
  try {
    next.callback(...next.args);
  } catch (error) {
    onError(error);
  }
}
