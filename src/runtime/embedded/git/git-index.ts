// Git's index file (.git/index, version 2), read and written with its stat data. just-git reads and writes this
// format but does not export its reader or writer, and leaves every entry's stat data at zero, so it compares file
// contents on every status. Conch's fast paths (fast/) keep real stat data in it instead (see work-tree-scan.ts for
// what each field holds), and just-git, which keeps the stat fields it reads, goes on working on the same file.
import { hexOf } from '../../object-id';

/** What an index entry remembers of the file it was staged from; all zero when unknown. */
export type IndexStat = { mtimeSeconds: number; mtimeNanoseconds: number; dev: number; ino: number; size: number };

/** One staged file: its workdir-relative path, blob id (40 hex digits), mode (0o100644 for a plain file) and stat. */
export type IndexEntry = { path: string; blobId: string; mode: number; stat?: IndexStat };

/** A whole index: its stage-0 entries in path order, or null (`conflicted`) when it holds a merge's stages. */
export type IndexFile = { entries: IndexEntry[]; conflicted: boolean };

const SIGNATURE = 0x44495243; // "DIRC"
const HEADER_BYTES = 12;
const FIXED_ENTRY_BYTES = 62; // ten 32-bit stat fields, the 20-byte id, 16-bit flags
const NAME_LENGTH_MASK = 0xfff;
const STAGE_MASK = 0x3000;
const EXTENDED_FLAG = 0x4000;
const TRAILER_BYTES = 20;
const ZERO_STAT: IndexStat = { mtimeSeconds: 0, mtimeNanoseconds: 0, dev: 0, ino: 0, size: 0 };
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The index file staging `entries` at stage 0 with their stat data (zero where absent), sorted by path bytes as git
 * requires, with its SHA-1 trailer. Written for 20,000 entries after every `git add`, so the names and ids are put in
 * without a copy each, and the one big checksum is Web Crypto's.
 */
export async function encodeIndex(entries: readonly IndexEntry[]): Promise<Uint8Array> {
  const named = entries.map((entry) => ({ entry, name: nameBytes(entry.path) }));
  // The callers mostly hand them over sorted already: a check costs one pass, a sort of 20,000 names far more.
  if (!named.every((item, i) => i === 0 || compareNames(named[i - 1], item) <= 0)) named.sort((a, b) => compareNames(a, b));
  let size = HEADER_BYTES;
  for (const { name } of named) size += paddedEntryBytes(name.length);
  const bytes = new Uint8Array(size + TRAILER_BYTES);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, SIGNATURE);
  view.setUint32(4, 2);
  view.setUint32(8, named.length);
  let offset = HEADER_BYTES;
  for (const { entry, name } of named) {
    const stat = entry.stat ?? ZERO_STAT;
    view.setUint32(offset + 8, stat.mtimeSeconds >>> 0);
    view.setUint32(offset + 12, stat.mtimeNanoseconds >>> 0);
    view.setUint32(offset + 16, stat.dev >>> 0);
    view.setUint32(offset + 20, stat.ino >>> 0);
    view.setUint32(offset + 24, entry.mode);
    view.setUint32(offset + 36, stat.size >>> 0);
    writeHexId(entry.blobId, bytes, offset + 40);
    view.setUint16(offset + 60, Math.min(name.length, NAME_LENGTH_MASK));
    if (typeof name.text === 'string') for (let i = 0; i < name.length; i++) bytes[offset + FIXED_ENTRY_BYTES + i] = name.text.charCodeAt(i);
    else bytes.set(name.text, offset + FIXED_ENTRY_BYTES);
    offset += paddedEntryBytes(name.length); // the padding is the NUL bytes the buffer already holds
  }
  bytes.set(new Uint8Array(await crypto.subtle.digest('SHA-1', bytes.subarray(0, size))), size);
  return bytes;
}

/** A path's bytes: the string itself when it is ASCII (one byte per character), else its UTF-8 encoding. */
type Name = { text: string | Uint8Array; length: number };
function nameBytes(path: string): Name {
  for (let i = 0; i < path.length; i++) if (path.charCodeAt(i) > 0x7f) {
    const encoded = encoder.encode(path);
    return { text: encoded, length: encoded.length };
  }
  return { text: path, length: path.length };
}

function compareNames(a: { name: Name }, b: { name: Name }): number {
  const x = a.name.text;
  const y = b.name.text;
  if (typeof x === 'string' && typeof y === 'string') return x < y ? -1 : x > y ? 1 : 0; // ASCII: code order is byte order
  return compareBytes(typeof x === 'string' ? encoder.encode(x) : x, typeof y === 'string' ? encoder.encode(y) : y);
}

/** Writes the 20 bytes of the object id `id` at `offset`; throws when it is not 40 lowercase hex digits. */
function writeHexId(id: string, target: Uint8Array, offset: number): void {
  if (id.length !== 40) throw new Error(`"${id}" is not a git object id (40 lowercase hex digits).`);
  for (let i = 0; i < 20; i++) {
    const high = hexValue(id.charCodeAt(2 * i));
    const low = hexValue(id.charCodeAt(2 * i + 1));
    if (high < 0 || low < 0) throw new Error(`"${id}" is not a git object id (40 lowercase hex digits).`);
    target[offset + i] = (high << 4) | low;
  }
}

function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 102) return code - 87;
  return -1;
}

/**
 * The entries of an index file (versions 2 and 3); its extensions (cached trees, resolve-undo) are left out, as
 * they are optional caches. Throws on anything that is not an index file git could have written.
 */
export function decodeIndex(bytes: Uint8Array): IndexFile {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < HEADER_BYTES + TRAILER_BYTES || view.getUint32(0) !== SIGNATURE) throw new Error('.git/index is not a git index file.');
  const version = view.getUint32(4);
  if (version !== 2 && version !== 3) throw new Error(`.git/index is version ${version}; only versions 2 and 3 are read here.`);
  const count = view.getUint32(8);
  const entries: IndexEntry[] = [];
  let conflicted = false;
  let offset = HEADER_BYTES;
  for (let i = 0; i < count; i++) {
    if (offset + FIXED_ENTRY_BYTES > bytes.length - TRAILER_BYTES) throw new Error('.git/index ends in the middle of an entry.');
    const flags = view.getUint16(offset + 60);
    const nameStart = offset + FIXED_ENTRY_BYTES + (flags & EXTENDED_FLAG && version === 3 ? 2 : 0);
    let nameEnd = nameStart;
    while (nameEnd < bytes.length && bytes[nameEnd] !== 0) nameEnd++;
    const entry: IndexEntry = {
      path: decoder.decode(bytes.subarray(nameStart, nameEnd)),
      blobId: hexOf(bytes.subarray(offset + 40, offset + 60)),
      mode: view.getUint32(offset + 24),
      stat: {
        mtimeSeconds: view.getUint32(offset + 8),
        mtimeNanoseconds: view.getUint32(offset + 12),
        dev: view.getUint32(offset + 16),
        ino: view.getUint32(offset + 20),
        size: view.getUint32(offset + 36),
      },
    };
    if ((flags & STAGE_MASK) !== 0) conflicted = true;
    else entries.push(entry);
    offset += Math.ceil((nameEnd + 1 - offset) / 8) * 8;
  }
  return { entries, conflicted };
}

// Each entry ends with 1 to 8 NUL bytes so that its length is a multiple of 8.
function paddedEntryBytes(nameLength: number): number {
  return Math.ceil((FIXED_ENTRY_BYTES + nameLength + 1) / 8) * 8;
}

/** Git's order of paths: by their UTF-8 bytes. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}
