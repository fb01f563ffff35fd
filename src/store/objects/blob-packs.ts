// Many files stored at once (an import of a whole repo, a generated folder) as a few records rather than one record
// each. IndexedDB pays per record: in Chromium, 20,000 small puts take seconds to tens of seconds where 50 one-megabyte
// puts take a tenth of one. So a commit bringing at least PACK_FROM new files writes them in packs of about PACK_BYTES:
// `pack:<id>` holds the files' bytes end to end and `pack-index:<id>` their blob ids and where each ends. Files stored
// one by one keep their own record, keyed by their blob id, in the same `blobs` store; a snapshot does not care which.
import type { ObjectId } from '../../runtime/object-id';
import { requestResult } from '../db';

/** From this many new files in one commit, they are stored in packs. */
export const PACK_FROM = 256;
/** A pack's size: large enough that records are few, small enough that reading one file reads little else. */
export const PACK_BYTES = 1024 * 1024;

/** What a pack's index record holds: its files' blob ids, and where each one's bytes end. */
export type PackIndexRecord = { ids: ObjectId[]; ends: number[] };
type PackedBlob = { pack: string; start: number; end: number };

const PACK_PREFIX = 'pack:';
const INDEX_PREFIX = 'pack-index:';
const packKey = (pack: string) => `${PACK_PREFIX}${pack}`;
const indexKey = (pack: string) => `${INDEX_PREFIX}${pack}`;
const indexRange = () => IDBKeyRange.bound(INDEX_PREFIX, `${INDEX_PREFIX}\uffff`);

/** Whether a key of the `blobs` store is a pack's (a file stored on its own is keyed by its 40-digit blob id). */
export function isPackKey(key: string): boolean {
  return key.startsWith(PACK_PREFIX) || key.startsWith(INDEX_PREFIX);
}

/**
 * What this tab knows of the packs in the store: which pack holds each packed file. Loaded on first need; another
 * tab's packs are found by loading again when a file is not found, and a pack a clean-up removed is checked for
 * before anything relies on it.
 */
export class PackIndex {
  private readonly byBlob = new Map<ObjectId, PackedBlob>();
  private readonly packs = new Map<string, ObjectId[]>();
  private loaded = false;

  /** Reads every pack's index from `blobs` (a store of a live transaction): once, or again when `again`. */
  async load(blobs: IDBObjectStore, again = false): Promise<void> {
    if (this.loaded && !again) return;
    const packs = await readPackIndexes(blobs);
    this.byBlob.clear();
    this.packs.clear();
    for (const [pack, record] of packs) this.add(pack, record);
    this.loaded = true;
  }

  /** Which pack holds `id`, as far as this tab knows. */
  where(id: ObjectId): PackedBlob | undefined {
    return this.byBlob.get(id);
  }

  add(pack: string, record: PackIndexRecord): void {
    this.packs.set(pack, record.ids);
    record.ids.forEach((id, i) => this.byBlob.set(id, { pack, start: i === 0 ? 0 : record.ends[i - 1], end: record.ends[i] }));
  }

  /** Packs deleted by a clean-up. */
  forget(packs: Iterable<string>): void {
    for (const pack of packs) {
      for (const id of this.packs.get(pack) ?? []) if (this.byBlob.get(id)?.pack === pack) this.byBlob.delete(id);
      this.packs.delete(pack);
    }
  }
}

/** Every pack's index in `blobs`, by pack id. */
export async function readPackIndexes(blobs: IDBObjectStore): Promise<Map<string, PackIndexRecord>> {
  const [keys, records] = await Promise.all([requestResult(blobs.getAllKeys(indexRange())), requestResult(blobs.getAll(indexRange()))]);
  return new Map((keys as string[]).map((key, i) => [key.slice(INDEX_PREFIX.length), records[i] as PackIndexRecord]));
}

/** Of `ids` (none stored on its own), those a pack in `blobs` holds; every pack relied on is checked to be there. */
export async function packedAmong(blobs: IDBObjectStore, ids: ObjectId[], index: PackIndex): Promise<Set<ObjectId>> {
  if (ids.length === 0) return new Set();
  await index.load(blobs);
  const byPack = groupByPack(ids, index);
  const packs = [...byPack.keys()];
  const counts = await Promise.all(packs.map((pack) => requestResult(blobs.count(indexKey(pack)))));
  const found = new Set<ObjectId>();
  packs.forEach((pack, i) => {
    if (counts[i] > 0) for (const id of byPack.get(pack)!) found.add(id);
  });
  return found;
}

/** The bytes of those of `ids` that packs hold (copies), reading each pack once; the others are left out. */
export async function readPacked(blobs: IDBObjectStore, ids: ObjectId[], index: PackIndex): Promise<Map<ObjectId, Uint8Array>> {
  await index.load(blobs);
  const out = await readFromPacks(blobs, ids, index);
  // Not found where this tab thought: another tab may have packed them, or cleaned a pack up and packed them anew.
  if (out.size < ids.length) {
    await index.load(blobs, true);
    for (const [id, bytes] of await readFromPacks(blobs, ids.filter((id) => !out.has(id)), index)) out.set(id, bytes);
  }
  return out;
}

async function readFromPacks(blobs: IDBObjectStore, ids: ObjectId[], index: PackIndex): Promise<Map<ObjectId, Uint8Array>> {
  const byPack = groupByPack(ids, index);
  const packs = [...byPack.keys()];
  const records = await Promise.all(packs.map((pack) => requestResult(blobs.get(packKey(pack)))));
  const out = new Map<ObjectId, Uint8Array>();
  packs.forEach((pack, i) => {
    const bytes = records[i];
    if (!(bytes instanceof Uint8Array)) return;
    for (const id of byPack.get(pack)!) {
      const { start, end } = index.where(id)!;
      out.set(id, bytes.slice(start, end));
    }
  });
  return out;
}

/**
 * Puts `files` into `blobs` as packs of about PACK_BYTES (a file larger than that gets a record of its own) and tells
 * `index`. Returns the last request, to wait on.
 */
export function putPacked(blobs: IDBObjectStore, files: [ObjectId, Uint8Array][], index: PackIndex): IDBRequest | null {
  let last: IDBRequest | null = null;
  let group: [ObjectId, Uint8Array][] = [];
  let groupBytes = 0;
  const flush = () => {
    if (group.length === 0) return;
    const pack = crypto.randomUUID();
    const bytes = new Uint8Array(groupBytes);
    const ends: number[] = [];
    let offset = 0;
    for (const [, data] of group) {
      bytes.set(data, offset);
      offset += data.length;
      ends.push(offset);
    }
    const record: PackIndexRecord = { ids: group.map(([id]) => id), ends };
    blobs.put(bytes, packKey(pack));
    last = blobs.put(record, indexKey(pack));
    index.add(pack, record);
    group = [];
    groupBytes = 0;
  };
  for (const [id, data] of files) {
    if (data.length >= PACK_BYTES) {
      last = blobs.put(data, id);
      continue;
    }
    if (groupBytes + data.length > PACK_BYTES) flush();
    group.push([id, data]);
    groupBytes += data.length;
  }
  flush();
  return last;
}

/** Those of `ids` that `index` places in a pack, by pack. */
function groupByPack(ids: ObjectId[], index: PackIndex): Map<string, ObjectId[]> {
  const byPack = new Map<string, ObjectId[]>();
  for (const id of ids) {
    const where = index.where(id);
    if (!where) continue;
    const list = byPack.get(where.pack);
    if (list) list.push(id);
    else byPack.set(where.pack, [id]);
  }
  return byPack;
}

/** The keys of a pack's two records, for a clean-up deleting it. */
export function packKeys(pack: string): string[] {
  return [packKey(pack), indexKey(pack)];
}
