// Event, EventTarget, AbortController and AbortSignal inside the guest, as Node's globals.

import { host } from '../host';
import { timers } from './timers';

export class Event {
  readonly type: string;
  defaultPrevented = false;
  readonly cancelable: boolean;
  readonly timeStamp = host.now();
  target: unknown = null;
  currentTarget: unknown = null;
  constructor(type: string, init: { cancelable?: boolean } = {}) {
    this.type = String(type);
    this.cancelable = init.cancelable === true;
  }
  preventDefault(): void {
    if (this.cancelable) this.defaultPrevented = true;
  }
  stopPropagation(): void {}
  stopImmediatePropagation(): void {}
}

type EventListenerEntry = { listener: unknown; once: boolean };

export class EventTarget {
  private readonly listeners = new Map<string, EventListenerEntry[]>();
  addEventListener(type: string, listener: unknown, options?: boolean | { once?: boolean }): void {
    if (!listener) return;
    const list = this.listeners.get(type) ?? [];
    if (list.some((entry) => entry.listener === listener)) return;
    list.push({ listener, once: typeof options === 'object' && options?.once === true });
    this.listeners.set(type, list);
  }
  removeEventListener(type: string, listener: unknown): void {
    this.listeners.set(type, (this.listeners.get(type) ?? []).filter((entry) => entry.listener !== listener));
  }
  dispatchEvent(event: Event): boolean {
    event.target = this;
    event.currentTarget = this;
    const handler = (this as unknown as Record<string, unknown>)[`on${event.type}`];
    if (typeof handler === 'function') handler.call(this, event);
    for (const entry of [...(this.listeners.get(event.type) ?? [])]) {
      if (entry.once) this.removeEventListener(event.type, entry.listener);
      const listener = entry.listener as ((event: Event) => void) | { handleEvent(event: Event): void };
      if (typeof listener === 'function') listener.call(this, event);
      else listener.handleEvent(event);
    }
    return !event.defaultPrevented;
  }
}

export class DOMException extends Error {
  constructor(message = '', readonly name_ = 'Error') {
    super(message);
    this.name = name_;
  }
}

export class AbortSignal extends EventTarget {
  aborted = false;
  reason: unknown = undefined;
  onabort: ((event: Event) => void) | null = null;
  throwIfAborted(): void {
    if (this.aborted) throw this.reason;
  }
  static abort(reason?: unknown): AbortSignal {
    const controller = new AbortController();
    controller.abort(reason);
    return controller.signal;
  }
  static timeout(ms: number): AbortSignal {
    const controller = new AbortController();
    timers.setTimeout(() => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), ms);
    return controller.signal;
  }
  static any(signals: AbortSignal[]): AbortSignal {
    const controller = new AbortController();
    for (const signal of signals) {
      if (signal.aborted) controller.abort(signal.reason);
      else signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
    }
    return controller.signal;
  }
}

export class AbortController {
  readonly signal = new AbortSignal();
  abort(reason?: unknown): void {
    if (this.signal.aborted) return;
    this.signal.aborted = true;
    this.signal.reason = reason ?? new DOMException('This operation was aborted', 'AbortError');
    this.signal.dispatchEvent(new Event('abort'));
  }
}

