import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { crc32, writeStoredZip } from './stored-zip';

const enc = new TextEncoder();

/** The textbook bit-by-bit CRC-32, to check the table-driven one against. */
function referenceCrc32(data: Uint8Array): number {
  let crc = ~0;
  for (const byte of data) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  }
  return ~crc >>> 0;
}

describe('writeStoredZip', () => {
  it('checksums like every other zip tool, at every length and alignment', () => {
    const bytes = Uint8Array.from({ length: 1000 }, (_, i) => (i * 131 + 7) & 0xff);
    for (const [start, end] of [[0, 0], [0, 1], [3, 10], [1, 17], [5, 1000], [0, 1000]]) {
      expect(crc32(bytes.subarray(start, end))).toBe(referenceCrc32(bytes.subarray(start, end)));
    }
    expect(crc32(enc.encode('123456789'))).toBe(0xcbf43926); // the standard check value
  });

  it('round-trips files, folders, binary and non-ASCII names through fflate', () => {
    const binary = Uint8Array.from({ length: 256 }, (_, i) => i);
    const zip = writeStoredZip([
      { path: 'src/', data: new Uint8Array(0) },
      { path: 'src/index.ts', data: enc.encode('export const x = 1;\n') },
      { path: 'bin/all.bin', data: binary },
      { path: 'docs/résumé ✓.md', data: enc.encode('ok') },
      { path: 'empty.txt', data: new Uint8Array(0) },
    ]);
    const back = unzipSync(zip);
    expect(Object.keys(back)).toEqual(['src/', 'src/index.ts', 'bin/all.bin', 'docs/résumé ✓.md', 'empty.txt']);
    expect(new TextDecoder().decode(back['src/index.ts'])).toBe('export const x = 1;\n');
    expect([...back['bin/all.bin']]).toEqual([...binary]);
    expect(back['empty.txt']).toHaveLength(0);
  });

  it('writes an empty archive readers accept', () => {
    expect(unzipSync(writeStoredZip([]))).toEqual({});
  });

  it('keeps every entry past 65,535 (Zip64 end records)', () => {
    const entries = Array.from({ length: 70_000 }, (_, i) => ({ path: `f/${i}.txt`, data: enc.encode(String(i)) }));
    const back = unzipSync(writeStoredZip(entries));
    expect(Object.keys(back)).toHaveLength(70_000);
    expect(new TextDecoder().decode(back['f/69999.txt'])).toBe('69999');
  });
});
