import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { createPersonalConventionsStore } from './personal-conventions';

describe('createPersonalConventionsStore', () => {
  it('keeps skills, commands and the switched-off list across openings, and forgets what was removed', async () => {
    const prefix = `t${Math.random()}-`;
    const store = createPersonalConventionsStore(prefix);
    await store.putSkill({ name: 'pdf', files: [{ path: 'SKILL.md', data: new Uint8Array([1, 2]) }] });
    await store.putSkill({ name: 'api', files: [] });
    await store.putCommand({ name: 'review', text: 'Review $1' });
    await store.setOff(['workspace:deploy']);
    await store.remove('skill', 'api');

    const loaded = await createPersonalConventionsStore(prefix).load();
    expect(loaded.skills).toEqual([{ name: 'pdf', files: [{ path: 'SKILL.md', data: new Uint8Array([1, 2]) }] }]);
    expect(loaded.commands).toEqual([{ name: 'review', text: 'Review $1' }]);
    expect(loaded.off).toEqual(['workspace:deploy']);
  });
});
