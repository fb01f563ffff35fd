import { describe, expect, it } from 'vitest';
import { ABORTED, AbortRace } from './abort';

describe('AbortRace', () => {
  it('says aborted as the signal does: from the start, or from the abort on', async () => {
    expect(new AbortRace(undefined).aborted).toBe(false);
    expect(new AbortRace(AbortSignal.abort()).aborted).toBe(true);
    const controller = new AbortController();
    const race = new AbortRace(controller.signal);
    const pending = race.race(new Promise(() => undefined));
    expect(race.aborted).toBe(false);
    controller.abort();
    expect(race.aborted).toBe(true);
    await expect(pending).resolves.toBe(ABORTED);
    race.dispose();
  });
});
