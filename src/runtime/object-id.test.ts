import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { EMPTY_TREE_ID, gitBlobId, gitObjectId, isObjectId } from './object-id';

/** What the real git prints for these bytes. */
const gitHashObject = (data: Uint8Array) => execFileSync('git', ['hash-object', '--stdin'], { input: data }).toString().trim();

describe('git object ids', () => {
  it('match `git hash-object` for empty, text, binary and large files', async () => {
    const samples = [
      new Uint8Array(0),
      new TextEncoder().encode('hello\n'),
      Uint8Array.from({ length: 256 }, (_, i) => i),
      Uint8Array.from({ length: 3 * 1024 * 1024 + 7 }, (_, i) => (i * 31) % 251),
    ];
    for (const data of samples) expect(await gitBlobId(data)).toBe(gitHashObject(data));
  });

  it('give the empty tree its well-known id', async () => {
    expect(await gitObjectId('tree', new Uint8Array(0))).toBe(EMPTY_TREE_ID);
    expect(execFileSync('git', ['hash-object', '-t', 'tree', '--stdin'], { input: new Uint8Array(0) }).toString().trim()).toBe(EMPTY_TREE_ID);
  });

  it('recognise well-formed ids only', () => {
    expect(isObjectId(EMPTY_TREE_ID)).toBe(true);
    expect(isObjectId(EMPTY_TREE_ID.toUpperCase())).toBe(false);
    expect(isObjectId('abc')).toBe(false);
    expect(isObjectId(42)).toBe(false);
  });
});
