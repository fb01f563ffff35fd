import { describe, expect, it } from 'vitest';
import { EventStream } from './event-stream';

describe('EventStream', () => {
  it('hands out events in order whether they were buffered in bulk or waited for, then ends with its result', async () => {
    const stream = new EventStream<number, string>();
    for (let i = 0; i < 1_000; i++) stream.push(i); // buffered before anyone reads
    const seen: number[] = [];
    const reading = (async () => {
      for await (const event of stream) seen.push(event);
    })();
    await Promise.resolve();
    for (let i = 1_000; i < 1_010; i++) {
      await new Promise((resolve) => setTimeout(resolve, 0)); // the reader waits for each of these
      stream.push(i);
    }
    stream.push(1_010);
    stream.end('done');
    stream.push(9_999); // after the end: dropped
    await reading;
    expect(seen).toEqual(Array.from({ length: 1_011 }, (_, i) => i));
    await expect(stream.result()).resolves.toBe('done');
  });
});
