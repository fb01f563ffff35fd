// Git's index file (.git/index, version 2) for a fresh checkout: what a repository made from the imported baseline
// starts with, so `git status` right after is clean. just-git reads and writes this format but does not export its
// writer, and its own way to fill the index (`git reset`) hashes the whole work tree once more.
import { isObjectId, writeIdBytes } from '../../object-id';

/** One staged file: its workdir-relative path, blob id (40 hex digits) and mode (0o100644 for a plain file). */
export type IndexEntry = { path: string; blobId: string; mode: number };

const SIGNATURE = 0x44495243; // "DIRC"
const VERSION = 2;
const HEADER_BYTES = 12;
const FIXED_ENTRY_BYTES = 62; // ten 32-bit stat fields, the 20-byte id, 16-bit flags
const NAME_LENGTH_MASK = 0xfff;

/**
 * The index file staging `entries` at stage 0, stat data left zero (git then compares contents, as just-git always
 * does), sorted by path bytes as git requires, with its SHA-1 trailer.
 */
export async function encodeIndex(entries: readonly IndexEntry[]): Promise<Uint8Array> {
  const encoder = new TextEncoder();
  const named = entries.map((entry) => ({ entry, name: encoder.encode(entry.path) })).sort((a, b) => compareBytes(a.name, b.name));
  let size = HEADER_BYTES;
  for (const { name } of named) size += paddedEntryBytes(name.length);
  const bytes = new Uint8Array(size + 20);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, SIGNATURE);
  view.setUint32(4, VERSION);
  view.setUint32(8, named.length);
  let offset = HEADER_BYTES;
  for (const { entry, name } of named) {
    view.setUint32(offset + 24, entry.mode);
    if (!isObjectId(entry.blobId)) throw new Error(`"${entry.blobId}" is not a git object id (40 lowercase hex digits).`);
    writeIdBytes(entry.blobId, bytes, offset + 40);
    view.setUint16(offset + 60, Math.min(name.length, NAME_LENGTH_MASK));
    bytes.set(name, offset + FIXED_ENTRY_BYTES);
    offset += paddedEntryBytes(name.length); // the padding is the NUL bytes the buffer already holds
  }
  const checksum = new Uint8Array(await crypto.subtle.digest('SHA-1', bytes.subarray(0, size)));
  bytes.set(checksum, size);
  return bytes;
}

// Each entry ends with 1 to 8 NUL bytes so that its length is a multiple of 8.
function paddedEntryBytes(nameLength: number): number {
  return Math.ceil((FIXED_ENTRY_BYTES + nameLength + 1) / 8) * 8;
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}
