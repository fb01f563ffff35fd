import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AssistantMessage } from '../../ai/types';
import { DraftWriter } from './draft-writer';
import { assistant } from '../testing/messages';

let saved: { at: number; text: string }[];
let cleared: number[];
let writer: DraftWriter;

const partial = (text: string): AssistantMessage => assistant(text);
const textOf = (m: AssistantMessage) => (m.content[0]?.type === 'text' ? m.content[0].text : '');

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
  saved = [];
  cleared = [];
  writer = new DraftWriter({
    save: async (draft) => void saved.push({ at: Date.now(), text: textOf(draft) }),
    clear: async () => void cleared.push(Date.now()),
  });
});
afterEach(() => {
  writer.dispose();
  vi.useRealTimers();
});

/** A reply streaming one delta every `everyMs` for `forMs`. */
async function stream(message: AssistantMessage, everyMs: number, forMs: number): Promise<void> {
  for (let t = 0; t < forMs; t += everyMs) {
    (message.content[0] as { text: string }).text += '.';
    writer.update(message);
    await vi.advanceTimersByTimeAsync(everyMs);
  }
}

describe('the draft writer', () => {
  it('saves a streaming reply at least every 2 s and never more than once a second, not on every delta', async () => {
    const message = partial('');
    await stream(message, 16, 10_000); // 60 deltas a second for 10 s
    expect(saved.length).toBeGreaterThanOrEqual(4);
    expect(saved.length).toBeLessThanOrEqual(10);
    const times = saved.map((s) => s.at);
    for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(1_000);
    expect(times[0]).toBeLessThanOrEqual(2_000);
    for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBeLessThanOrEqual(2_016);
  });

  it('keeps a copy of the reply as it was, not the live object that keeps growing', async () => {
    const message = partial('Let me');
    writer.update(message);
    await vi.advanceTimersByTimeAsync(2_000);
    (message.content[0] as { text: string }).text += ' look';
    expect(saved).toEqual([{ at: 2_000, text: 'Let me' }]);
  });

  it('saves as soon as allowed when a tool call\'s arguments complete', async () => {
    const message = partial('a');
    writer.update(message);
    await vi.advanceTimersByTimeAsync(2_000);
    writer.update(message);
    await vi.advanceTimersByTimeAsync(300);
    writer.soon(message); // 700 ms before the 1 s interval is over
    await vi.advanceTimersByTimeAsync(699);
    expect(saved).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(saved.map((s) => s.at)).toEqual([2_000, 3_000]);
    writer.soon(message);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(saved.map((s) => s.at)).toEqual([2_000, 3_000, 4_000]);
  });

  it('clears after any write in flight, so a late write never brings a cleared draft back', async () => {
    let finishWrite!: () => void;
    const order: string[] = [];
    const slow = new DraftWriter({
      save: () => new Promise<void>((resolve) => (finishWrite = () => (order.push('saved'), resolve()))),
      clear: async () => void order.push('cleared'),
    });
    slow.soon(partial('x'));
    await vi.advanceTimersByTimeAsync(0);
    slow.update(partial('xy'));
    const done = slow.clear();
    finishWrite();
    await done;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(order).toEqual(['saved', 'cleared']);
  });

  it('flushes what is pending at once, and reports a failed write without stopping', async () => {
    const errors: unknown[] = [];
    let fail = true;
    const flaky = new DraftWriter({
      save: async () => {
        if (fail) throw new Error('quota');
      },
      clear: async () => undefined,
      onError: (error) => errors.push(error),
    });
    flaky.update(partial('a'));
    await flaky.flush();
    expect(errors).toEqual([new Error('quota')]);
    fail = false;
    flaky.update(partial('ab'));
    await flaky.flush();
    expect(errors).toHaveLength(1);
    writer.update(partial('now'));
    await writer.flush();
    expect(saved).toEqual([{ at: 0, text: 'now' }]);
  });
});
