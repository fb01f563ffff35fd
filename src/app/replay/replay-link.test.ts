import { describe, expect, it } from 'vitest';
import { replayHash, replayStepOfHash } from './replay-link';

describe('the replay position in the address', () => {
  it('reads #replay=<step>, 1-based, and writes it back', () => {
    expect(replayStepOfHash('#replay=12')).toBe(12);
    expect(replayStepOfHash('replay=1')).toBe(1);
    expect(replayHash(12)).toBe('#replay=12');
    expect(replayStepOfHash(replayHash(87))).toBe(87);
  });

  it('names no step for anything else', () => {
    for (const hash of ['', '#', '#replay=', '#replay=0', '#replay=-3', '#replay=2x', '#session=https://x', '#replay=1&x=2']) {
      expect(replayStepOfHash(hash)).toBeNull();
    }
  });
});
