// Files on their way to the worker (an import, a restore's writes, the baseline git asks for): packed end to end
// into one buffer that is transferred, not cloned, since 20,000 small copies cost more than one big move.
import { isObjectId } from '../object-id';
import type { BaselineFile } from '../types';

export type PackedFiles = { paths: string[]; ends: Uint32Array; bytes: ArrayBuffer };

/** The files end to end in one buffer (file i ends at ends[i]), ready to be transferred. */
export function packFiles(files: { path: string; data: Uint8Array }[]): PackedFiles {
  const ends = new Uint32Array(files.length);
  let total = 0;
  for (let i = 0; i < files.length; i++) {
    total += files[i].data.length;
    if (total > 0xffffffff) throw new Error('These files are more than 4 GB together, too much for the sandbox.');
    ends[i] = total;
  }
  const bytes = new Uint8Array(total);
  for (let i = 0; i < files.length; i++) bytes.set(files[i].data, i === 0 ? 0 : ends[i - 1]);
  return { paths: files.map((file) => file.path), ends, bytes: bytes.buffer };
}

/** Views into the one transferred buffer of a packed file list: the files are not copied again. */
export function unpackFiles(packed: PackedFiles): { path: string; data: Uint8Array }[] {
  return packed.paths.map((path, i) => {
    const start = i === 0 ? 0 : packed.ends[i - 1];
    return { path, data: new Uint8Array(packed.bytes, start, (packed.ends[i] ?? 0) - start) };
  });
}

/**
 * The baseline's files as the page sent them, each with its blob id when the page sent one well-formed id per file;
 * otherwise none has one, and git hashes them all.
 */
export function unpackBaselineFiles(packed: PackedFiles & { blobIds?: unknown }): BaselineFile[] {
  const files = unpackFiles(packed);
  const ids = packed.blobIds;
  if (!Array.isArray(ids) || ids.length !== files.length || !ids.every(isObjectId)) return files;
  return files.map((file, i) => ({ ...file, blobId: ids[i] as string }));
}
