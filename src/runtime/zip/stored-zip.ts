// A zip writer for entries stored without compression, in the workspace zip format (workspace-zip.ts). Repo imports keep
// their tree as a baseline zip right after inflating it; deflating it again would cost seconds, and fflate's level-0
// path still spends most of its time in a byte-at-a-time CRC. This one checksums eight bytes per step and copies
// each file once. Past 65,535 entries it adds the Zip64 end records (readers take the count from there).

import { CENTRAL_HEADER, END_OF_DIRECTORY, LOCAL_HEADER, ZIP64_END, ZIP64_LOCATOR } from './signatures';

const UTF8_NAMES = 0x0800;
const VERSION = 20;
const ZIP64_VERSION = 45;
const MAX_32 = 0xffffffff;

/** `crc`, when known (e.g. declared by the zip the data came from), is used instead of checksumming again. */
export type StoredZipEntry = { path: string; data: Uint8Array; crc?: number };

const CRC_TABLES = buildCrcTables();

/** The zip of `entries` (paths as given; folders as `name/` with empty data), every entry stored uncompressed. */
export function writeStoredZip(entries: readonly StoredZipEntry[]): Uint8Array {
  const encoder = new TextEncoder();
  const names = entries.map((entry) => encoder.encode(entry.path));
  let dataBytes = 0;
  let nameBytes = 0;
  for (let i = 0; i < entries.length; i++) {
    dataBytes += entries[i].data.length;
    nameBytes += names[i].length;
  }
  const directoryStart = dataBytes + nameBytes + 30 * entries.length;
  const directorySize = nameBytes + 46 * entries.length;
  if (directoryStart > MAX_32) {
    throw new Error('The workspace is larger than 4 GB, more than a workspace zip can hold. Remove large files and try again.');
  }
  const zip64 = entries.length > 0xffff;
  const out = new Uint8Array(directoryStart + directorySize + 22 + (zip64 ? 56 + 20 : 0));
  const view = new DataView(out.buffer);
  const { time, date } = dosTimestamp(new Date());
  const crcs = new Uint32Array(entries.length);
  const offsets = new Uint32Array(entries.length);

  let at = 0;
  for (let i = 0; i < entries.length; i++) {
    const data = entries[i].data;
    const name = names[i];
    const crc = entries[i].crc ?? crc32(data);
    crcs[i] = crc;
    offsets[i] = at;
    view.setUint32(at, LOCAL_HEADER, true);
    view.setUint16(at + 4, VERSION, true);
    view.setUint16(at + 6, UTF8_NAMES, true);
    view.setUint16(at + 8, 0, true); // stored
    view.setUint16(at + 10, time, true);
    view.setUint16(at + 12, date, true);
    view.setUint32(at + 14, crc, true);
    view.setUint32(at + 18, data.length, true);
    view.setUint32(at + 22, data.length, true);
    view.setUint16(at + 26, name.length, true);
    view.setUint16(at + 28, 0, true);
    out.set(name, at + 30);
    out.set(data, at + 30 + name.length);
    at += 30 + name.length + data.length;
  }

  for (let i = 0; i < entries.length; i++) {
    const name = names[i];
    const size = entries[i].data.length;
    view.setUint32(at, CENTRAL_HEADER, true);
    view.setUint16(at + 4, VERSION, true);
    view.setUint16(at + 6, VERSION, true);
    view.setUint16(at + 8, UTF8_NAMES, true);
    view.setUint16(at + 10, 0, true);
    view.setUint16(at + 12, time, true);
    view.setUint16(at + 14, date, true);
    view.setUint32(at + 16, crcs[i], true);
    view.setUint32(at + 20, size, true);
    view.setUint32(at + 24, size, true);
    view.setUint16(at + 28, name.length, true);
    // extra, comment, disk, internal attributes: 0; external attributes: MS-DOS directory bit for folders
    view.setUint32(at + 38, entries[i].path.endsWith('/') ? 0x10 : 0, true);
    view.setUint32(at + 42, offsets[i], true);
    out.set(name, at + 46);
    at += 46 + name.length;
  }

  if (zip64) {
    const recordAt = at;
    view.setUint32(at, ZIP64_END, true);
    view.setBigUint64(at + 4, 44n, true); // size of the rest of this record
    view.setUint16(at + 12, ZIP64_VERSION, true);
    view.setUint16(at + 14, ZIP64_VERSION, true);
    view.setBigUint64(at + 24, BigInt(entries.length), true);
    view.setBigUint64(at + 32, BigInt(entries.length), true);
    view.setBigUint64(at + 40, BigInt(directorySize), true);
    view.setBigUint64(at + 48, BigInt(directoryStart), true);
    at += 56;
    view.setUint32(at, ZIP64_LOCATOR, true);
    view.setBigUint64(at + 8, BigInt(recordAt), true);
    view.setUint32(at + 16, 1, true); // total disks
    at += 20;
  }
  const count = zip64 ? 0xffff : entries.length;
  view.setUint32(at, END_OF_DIRECTORY, true);
  view.setUint16(at + 8, count, true);
  view.setUint16(at + 10, count, true);
  view.setUint32(at + 12, directorySize, true);
  view.setUint32(at + 16, directoryStart, true);
  return out;
}

/** CRC-32 (the zip/PNG polynomial) of `data`. */
export function crc32(data: Uint8Array): number {
  const t = CRC_TABLES;
  let crc = ~0;
  let i = 0;
  const fast = data.length - (data.length % 8);
  while (i < fast) {
    const a = crc ^ (data[i] | (data[i + 1] << 8) | (data[i + 2] << 16) | (data[i + 3] << 24));
    crc =
      t[1792 + (a & 0xff)] ^
      t[1536 + ((a >>> 8) & 0xff)] ^
      t[1280 + ((a >>> 16) & 0xff)] ^
      t[1024 + (a >>> 24)] ^
      t[768 + data[i + 4]] ^
      t[512 + data[i + 5]] ^
      t[256 + data[i + 6]] ^
      t[data[i + 7]];
    i += 8;
  }
  while (i < data.length) crc = t[(crc ^ data[i++]) & 0xff] ^ (crc >>> 8);
  return ~crc >>> 0;
}

// Eight 256-entry tables: table k gives the CRC contribution of a byte followed by k zero bytes.
function buildCrcTables(): Uint32Array {
  const tables = new Uint32Array(256 * 8);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    tables[n] = c;
  }
  for (let n = 0; n < 256; n++) {
    let c = tables[n];
    for (let k = 1; k < 8; k++) {
      c = tables[c & 0xff] ^ (c >>> 8);
      tables[k * 256 + n] = c;
    }
  }
  return tables;
}

function dosTimestamp(now: Date): { time: number; date: number } {
  const year = Math.max(1980, now.getFullYear());
  return {
    time: (now.getHours() << 11) | (now.getMinutes() << 5) | (now.getSeconds() >> 1),
    date: ((year - 1980) << 9) | ((now.getMonth() + 1) << 5) | now.getDate(),
  };
}
