import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { createPackageCache } from './package-cache';

describe('createPackageCache', () => {
  it('keeps bytes by key across openings of the database, and answers undefined for a key it never stored', async () => {
    const prefix = `t${Math.random()}-`;
    await createPackageCache(prefix).put('tarball:sha512-abc', new Uint8Array([1, 2, 3]));
    const reopened = createPackageCache(prefix);
    expect(await reopened.get('tarball:sha512-abc')).toEqual(new Uint8Array([1, 2, 3]));
    expect(await reopened.get('tarball:sha512-other')).toBeUndefined();
  });
});
