// Objects written as git pack files (version 2, each with its version-2 .idx) whose zlib streams use stored
// blocks: no compression, so writing 45 MB costs a copy and two checksums instead of 20,000 deflates, and real git
// and just-git read them like any pack. The objects are split over packs of about PACK_BYTES each because the
// browser's inflate (just-git's fflate) sizes its output by the input left in the pack: small packs keep each read
// small.
import type { FileSystem } from 'just-git';
import { hexOf, writeIdBytes } from '../../../object-id';
import type { ObjectHasher } from './object-hasher';

/** An object to pack, with its id already known. */
export type PackedObject = { id: string; type: 'commit' | 'tree' | 'blob'; body: Uint8Array };

const PACK_BYTES = 1 << 20;
const TYPE_NUMBER = { commit: 1, tree: 2, blob: 3 } as const;
const STORED_BLOCK = 0xffff;

/** Writes `objects` into `<gitDir>/objects/pack/` as packs of about PACK_BYTES each. */
export async function writeStoredPacks(fs: FileSystem, gitDir: string, objects: readonly PackedObject[], hasher: ObjectHasher): Promise<void> {
  const folder = `${gitDir}/objects/pack`;
  await fs.mkdir(folder, { recursive: true });
  let start = 0;
  while (start < objects.length) {
    let end = start;
    let bytes = 0;
    while (end < objects.length && (end === start || bytes + objects[end].body.length <= PACK_BYTES)) bytes += objects[end++].body.length;
    const { pack, index, name } = packOf(objects.slice(start, end), hasher);
    await fs.writeFile(`${folder}/${name}.pack`, pack);
    await fs.writeFile(`${folder}/${name}.idx`, index);
    start = end;
  }
}

function packOf(objects: readonly PackedObject[], hasher: ObjectHasher): { pack: Uint8Array; index: Uint8Array; name: string } {
  let size = 12 + 20;
  for (const object of objects) size += 10 + storedLength(object.body.length);
  const buffer = new Uint8Array(size);
  const view = new DataView(buffer.buffer);
  view.setUint32(0, 0x5041434b); // "PACK"
  view.setUint32(4, 2);
  view.setUint32(8, objects.length);
  const offsets = new Uint32Array(objects.length);
  const crcs = new Uint32Array(objects.length);
  let at = 12;
  objects.forEach((object, i) => {
    offsets[i] = at;
    const end = writeStored(buffer, view, writeHeader(buffer, at, TYPE_NUMBER[object.type], object.body.length), object.body, hasher);
    crcs[i] = hasher.crc32(buffer.subarray(at, end));
    at = end;
  });
  const checksum = hasher.digest(buffer.subarray(0, at));
  buffer.set(checksum, at);
  return { pack: buffer.subarray(0, at + 20), index: indexOf(objects, offsets, crcs, checksum, hasher), name: `pack-${hexOf(checksum)}` };
}

// The type and size, four bits then seven at a time, low bits first.
function writeHeader(buffer: Uint8Array, at: number, type: number, length: number): number {
  let rest = Math.floor(length / 16);
  buffer[at++] = (rest > 0 ? 0x80 : 0) | (type << 4) | (length & 15);
  while (rest > 0) {
    const low = rest & 0x7f;
    rest = Math.floor(rest / 128);
    buffer[at++] = (rest > 0 ? 0x80 : 0) | low;
  }
  return at;
}

function storedLength(length: number): number {
  return 2 + Math.max(1, Math.ceil(length / STORED_BLOCK)) * 5 + length + 4;
}

/** A zlib stream of `body` in stored blocks at `at`; returns where it ends. */
function writeStored(buffer: Uint8Array, view: DataView, at: number, body: Uint8Array, hasher: ObjectHasher): number {
  buffer[at++] = 0x78; // deflate, 32 kB window
  buffer[at++] = 0x01; // no preset dictionary, fastest level; 0x7801 is a multiple of 31 as zlib requires
  let offset = 0;
  do {
    const length = Math.min(STORED_BLOCK, body.length - offset);
    buffer[at] = offset + length >= body.length ? 1 : 0;
    buffer[at + 1] = length & 0xff;
    buffer[at + 2] = length >>> 8;
    buffer[at + 3] = ~length & 0xff;
    buffer[at + 4] = (~length >>> 8) & 0xff;
    buffer.set(body.subarray(offset, offset + length), at + 5);
    at += 5 + length;
    offset += length;
  } while (offset < body.length);
  view.setUint32(at, hasher.adler32(body));
  return at + 4;
}


/** The pack's .idx (version 2): a fan-out by first byte, the sorted ids, their CRCs and offsets, two checksums. */
function indexOf(objects: readonly PackedObject[], offsets: Uint32Array, crcs: Uint32Array, packChecksum: Uint8Array, hasher: ObjectHasher): Uint8Array {
  const order = objects.map((_, i) => i).sort((x, y) => (objects[x].id < objects[y].id ? -1 : objects[x].id > objects[y].id ? 1 : 0));
  const count = objects.length;
  const index = new Uint8Array(8 + 256 * 4 + count * 28 + 40);
  const view = new DataView(index.buffer);
  view.setUint32(0, 0xff744f63);
  view.setUint32(4, 2);
  const fanout = new Uint32Array(256);
  for (const object of objects) fanout[parseInt(object.id.slice(0, 2), 16)]++;
  let total = 0;
  for (let i = 0; i < 256; i++) view.setUint32(8 + i * 4, (total += fanout[i]));
  const ids = 8 + 256 * 4;
  const checks = ids + count * 20;
  const places = checks + count * 4;
  order.forEach((objectIndex, slot) => {
    writeIdBytes(objects[objectIndex].id, index, ids + slot * 20);
    view.setUint32(checks + slot * 4, crcs[objectIndex]);
    view.setUint32(places + slot * 4, offsets[objectIndex]);
  });
  const tail = places + count * 4;
  index.set(packChecksum, tail);
  index.set(hasher.digest(index.subarray(0, tail + 20)), tail + 20);
  return index;
}
