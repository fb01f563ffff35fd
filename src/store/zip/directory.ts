// Reads a zip's central directory (names, sizes, attributes) without inflating anything, so limits can be
// checked before a single byte is decompressed. Supports Zip64 (over 65,535 entries or 4 GiB).
import { CENTRAL_HEADER, END_OF_DIRECTORY, LOCAL_HEADER, ZIP64_END, ZIP64_LOCATOR } from '../../runtime/zip/signatures';
import { ZipImportError } from '../errors';

export interface ZipEntry {
  rawName: string;
  method: number; // 0 stored, 8 deflate
  encrypted: boolean;
  compressedSize: number;
  size: number; // uncompressed, as declared
  crc: number; // CRC-32 of the uncompressed data, as declared
  isSymlink: boolean;
  isDirectory: boolean;
  localHeaderOffset: number;
}

const UNIX_HOST = 3;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const S_IFDIR = 0o040000;

const corrupt = (detail: string, entry?: string) =>
  new ZipImportError(`This file is not a readable zip (${detail}). Nothing was imported; check that the download finished.`, entry);

/** Every entry of the central directory, in order. Throws ZipImportError for anything malformed. */
export function readCentralDirectory(data: Uint8Array): ZipEntry[] {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const eocd = findEndOfCentralDirectory(data, view);
  let count = view.getUint16(eocd + 10, true);
  let directorySize = view.getUint32(eocd + 12, true);
  let offset = view.getUint32(eocd + 16, true);
  const locator = eocd - 20;
  if (locator >= 0 && view.getUint32(locator, true) === ZIP64_LOCATOR) {
    const zip64 = readUint64(view, locator + 8);
    if (zip64 + 56 > data.length || view.getUint32(zip64, true) !== ZIP64_END) throw corrupt('broken Zip64 directory');
    count = readUint64(view, zip64 + 32);
    directorySize = readUint64(view, zip64 + 40);
    offset = readUint64(view, zip64 + 48);
  }
  const directoryEnd = offset + directorySize;
  if (directoryEnd > data.length) throw corrupt('the zip directory runs past the end');
  const decoder = new TextDecoder();
  const entries: ZipEntry[] = [];
  let at = offset;
  // Walk the directory by its byte size rather than its entry count: some writers (fflate among them) store
  // the count modulo 65,536 instead of writing a Zip64 record.
  while (at < directoryEnd) {
    if (at + 46 > directoryEnd || view.getUint32(at, true) !== CENTRAL_HEADER) {
      throw corrupt(`directory entry ${entries.length + 1} is damaged`);
    }
    const madeBy = view.getUint16(at + 4, true);
    const flags = view.getUint16(at + 8, true);
    const method = view.getUint16(at + 10, true);
    const crc = view.getUint32(at + 16, true);
    let compressedSize = view.getUint32(at + 20, true);
    let size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const external = view.getUint32(at + 38, true);
    let localHeaderOffset = view.getUint32(at + 42, true);
    const nameStart = at + 46;
    const extraStart = nameStart + nameLength;
    const next = extraStart + extraLength + commentLength;
    if (next > data.length) throw corrupt(`directory entry ${entries.length + 1} runs past the end`);
    const rawName = decoder.decode(data.subarray(nameStart, extraStart));
    if (size === 0xffffffff || compressedSize === 0xffffffff || localHeaderOffset === 0xffffffff) {
      const wide = readZip64Extra(view, extraStart, extraLength, {
        size: size === 0xffffffff,
        compressedSize: compressedSize === 0xffffffff,
        offset: localHeaderOffset === 0xffffffff,
      });
      if (!wide) throw corrupt('a Zip64 entry lacks its size field', rawName);
      size = wide.size ?? size;
      compressedSize = wide.compressedSize ?? compressedSize;
      localHeaderOffset = wide.offset ?? localHeaderOffset;
    }
    const mode = (madeBy >> 8 === UNIX_HOST ? external >>> 16 : 0) & S_IFMT;
    entries.push({
      rawName,
      method,
      encrypted: (flags & 1) !== 0,
      compressedSize,
      size,
      crc,
      isSymlink: mode === S_IFLNK,
      isDirectory: rawName.endsWith('/') || mode === S_IFDIR || ((external & 0x10) !== 0 && size === 0),
      localHeaderOffset,
    });
    at = next;
  }
  if (entries.length % 0x10000 !== count % 0x10000) throw corrupt(`the directory lists ${count} entries but holds ${entries.length}`);
  return entries;
}

/** Where an entry's compressed bytes are, from its local header. */
export function entryData(data: Uint8Array, entry: ZipEntry): Uint8Array {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const at = entry.localHeaderOffset;
  if (at + 30 > data.length || view.getUint32(at, true) !== LOCAL_HEADER) {
    throw corrupt(`the data of "${entry.rawName}" is missing`, entry.rawName);
  }
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  const end = start + entry.compressedSize;
  if (end > data.length) throw corrupt(`"${entry.rawName}" is cut off`, entry.rawName);
  return data.subarray(start, end);
}

function findEndOfCentralDirectory(data: Uint8Array, view: DataView): number {
  const stop = Math.max(0, data.length - 22 - 0xffff);
  for (let at = data.length - 22; at >= stop; at--) {
    if (view.getUint32(at, true) === END_OF_DIRECTORY) return at;
  }
  throw corrupt(data.length < 22 ? 'it is too short' : 'no zip directory found');
}

function readUint64(view: DataView, at: number): number {
  const value = view.getBigUint64(at, true);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw corrupt('a size is out of range');
  return Number(value);
}

function readZip64Extra(
  view: DataView,
  start: number,
  length: number,
  wanted: { size: boolean; compressedSize: boolean; offset: boolean },
): { size?: number; compressedSize?: number; offset?: number } | null {
  for (let at = start; at + 4 <= start + length; ) {
    const id = view.getUint16(at, true);
    const fieldLength = view.getUint16(at + 2, true);
    if (id === 0x0001) {
      let field = at + 4;
      const end = field + fieldLength;
      const take = (want: boolean) => {
        if (!want || field + 8 > end) return undefined;
        const value = readUint64(view, field);
        field += 8;
        return value;
      };
      // The fields appear in this fixed order, each only when its 32-bit header field is saturated.
      const size = take(wanted.size);
      const compressedSize = take(wanted.compressedSize);
      const offset = take(wanted.offset);
      return { size, compressedSize, offset };
    }
    at += 4 + fieldLength;
  }
  return null;
}
