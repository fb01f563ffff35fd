import { describe, expect, it } from 'vitest';
import { TOAST_MS, Toasts } from './toasts.svelte';

/** Timers the test fires by hand. */
function manualClock() {
  let pending: { fn: () => void; at: number; handle: number }[] = [];
  let now = 0;
  let serial = 0;
  return {
    set: (fn: () => void, ms: number) => {
      pending.push({ fn, at: now + ms, handle: ++serial });
      return serial;
    },
    clear: (handle: unknown) => {
      pending = pending.filter((p) => p.handle !== handle);
    },
    advance(ms: number) {
      now += ms;
      const due = pending.filter((p) => p.at <= now);
      pending = pending.filter((p) => p.at > now);
      for (const p of due) p.fn();
    },
  };
}

describe('toasts', () => {
  it('lets successes go by themselves, keeps errors until dismissed, and replaces an outcome of the same kind', () => {
    const clock = manualClock();
    const toasts = new Toasts(clock);
    toasts.show({ kind: 'success', text: 'Imported 3 files', key: 'repo' });
    const error = toasts.show({ kind: 'error', text: 'zip slip', key: 'session' });
    toasts.show({ kind: 'success', text: 'Imported 4 files', key: 'repo' });
    expect(toasts.items.map((t) => t.text)).toEqual(['zip slip', 'Imported 4 files']);
    clock.advance(TOAST_MS);
    expect(toasts.items.map((t) => t.text)).toEqual(['zip slip']);
    toasts.dismiss(error);
    expect(toasts.items).toEqual([]);
  });

  it('waits while the person reads one', () => {
    const clock = manualClock();
    const toasts = new Toasts(clock);
    const id = toasts.show({ kind: 'info', text: 'Exported' });
    clock.advance(TOAST_MS - 1);
    toasts.pause(id);
    clock.advance(TOAST_MS * 3);
    expect(toasts.items).toHaveLength(1);
    toasts.resume(id);
    clock.advance(TOAST_MS);
    expect(toasts.items).toHaveLength(0);
  });
});
