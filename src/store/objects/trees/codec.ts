// One folder of a snapshot, like a git tree: its entries (name -> blob or subtree id, mode) in git's order, keyed by
// git's tree id, so snapshots share every unchanged folder and git can read them as they are. The stored record
// adds what git's tree lacks, each file's size (for comparisons and storage figures):
//   varint(body length) | git tree body | varint(size) for each file entry, in order
// where the body is git's own: for each entry `<mode> <name>\0<20-byte id>`.
import { gitObjectId, hexOf, writeIdBytes, type ObjectId } from '../../../runtime/object-id';

export type TreeEntry =
  | { name: string; kind: 'file'; id: ObjectId; size: number; executable?: boolean }
  | { name: string; kind: 'dir'; id: ObjectId };

/** A folder's entries in git's order, and its git tree id. */
export type Tree = { id: ObjectId; entries: TreeEntry[] };

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });
const MODE = { file: '100644', executable: '100755', dir: '40000' } as const;

/** Why a name cannot be a folder entry, or null when it can. */
export function badEntryName(name: string): string | null {
  if (name === '' || name === '.' || name === '..') return `"${name}" is not a file or folder name`;
  if (name.includes('/') || name.includes('\0')) return `"${name}" contains a slash or a NUL byte`;
  return null;
}

/** Git's order: byte order of the names, a folder's name compared as if it ended in "/". */
export function compareEntries(a: Pick<TreeEntry, 'name' | 'kind'>, b: Pick<TreeEntry, 'name' | 'kind'>): number {
  return compareCodePoints(a.kind === 'dir' ? `${a.name}/` : a.name, b.kind === 'dir' ? `${b.name}/` : b.name);
}

// UTF-8 byte order is code point order; JavaScript's < compares UTF-16 units, which differs above U+FFFF.
function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x < 0xd800 && y < 0xd800) return x - y;
    return (a.codePointAt(i) ?? 0) - (b.codePointAt(i) ?? 0);
  }
  return a.length - b.length;
}

/** Git's tree body for entries already in git's order. */
export function gitTreeBody(entries: readonly TreeEntry[]): Uint8Array {
  const heads = entries.map((e) => encoder.encode(`${e.kind === 'dir' ? MODE.dir : e.executable ? MODE.executable : MODE.file} ${e.name}\0`));
  const body = new Uint8Array(heads.reduce((n, head) => n + head.length + 20, 0));
  let at = 0;
  entries.forEach((entry, i) => {
    body.set(heads[i], at);
    at += heads[i].length;
    writeIdBytes(entry.id, body, at);
    at += 20;
  });
  return body;
}

/** The tree of `entries` (any order; names must be unique and valid), with its git id. */
export async function makeTree(entries: TreeEntry[]): Promise<Tree> {
  const sorted = [...entries].sort(compareEntries);
  return { id: await gitObjectId('tree', gitTreeBody(sorted)), entries: sorted };
}

/** The stored record of a tree. */
export function encodeTree(tree: Tree): Uint8Array {
  const body = gitTreeBody(tree.entries);
  const sizes: number[] = [];
  for (const entry of tree.entries) if (entry.kind === 'file') sizes.push(entry.size);
  const out = new Uint8Array(varintLength(body.length) + body.length + sizes.reduce((n, s) => n + varintLength(s), 0));
  let at = writeVarint(out, 0, body.length);
  out.set(body, at);
  at += body.length;
  for (const size of sizes) at = writeVarint(out, at, size);
  return out;
}

/** A tree from its stored record; throws (naming `id`) when the record is damaged. */
export function decodeTree(id: ObjectId, record: Uint8Array): Tree {
  const [bodyLength, bodyStart] = readVarint(record, 0);
  const bodyEnd = bodyStart + bodyLength;
  if (bodyEnd > record.length) throw damagedTree(id, 'its record is cut short');
  const entries = parseGitTreeBody(record.subarray(bodyStart, bodyEnd), (problem) => damagedTree(id, problem)).map((e) => ({ ...e, size: 0 }));
  let at = bodyEnd;
  for (const entry of entries) {
    if (entry.kind !== 'file') continue;
    const [size, next] = readVarint(record, at);
    entry.size = size;
    at = next;
  }
  return {
    id,
    entries: entries.map((e): TreeEntry => (e.kind === 'dir' ? { name: e.name, kind: 'dir', id: e.id } : { name: e.name, kind: 'file', id: e.id, size: e.size, ...(e.executable ? { executable: true } : {}) })),
  };
}

/** The entries of a git tree body (no sizes); `fail` makes the error for a malformed one. */
export function parseGitTreeBody(
  body: Uint8Array,
  fail: (problem: string) => Error,
): { name: string; kind: 'file' | 'dir'; id: ObjectId; executable?: boolean }[] {
  const entries: { name: string; kind: 'file' | 'dir'; id: ObjectId; executable?: boolean }[] = [];
  let at = 0;
  while (at < body.length) {
    const space = body.indexOf(0x20, at);
    const nul = space < 0 ? -1 : body.indexOf(0, space);
    if (space < 0 || nul < 0 || nul + 21 > body.length) throw fail(`entry ${entries.length + 1} is cut short`);
    const mode = decoder.decode(body.subarray(at, space));
    let name: string;
    try {
      name = decoder.decode(body.subarray(space + 1, nul));
    } catch {
      throw fail(`entry ${entries.length + 1} has a name that is not UTF-8`);
    }
    const bad = badEntryName(name);
    if (bad) throw fail(bad);
    const id = hexOf(body.subarray(nul + 1, nul + 21));
    if (mode === MODE.dir) entries.push({ name, kind: 'dir', id });
    else if (mode === MODE.file) entries.push({ name, kind: 'file', id });
    else if (mode === MODE.executable) entries.push({ name, kind: 'file', id, executable: true });
    else throw fail(`"${name}" has mode ${mode}; only files (100644, 100755) and folders (40000) can be kept`);
    const previous = entries[entries.length - 2];
    if (previous && compareEntries(previous, entries[entries.length - 1]) >= 0) {
      throw fail(`"${name}" is out of order or given twice`);
    }
    at = nul + 21;
  }
  return entries;
}

const damagedTree = (id: ObjectId, problem: string) =>
  new Error(`A stored folder of a snapshot (${id.slice(0, 12)}) is damaged: ${problem}. Restore an earlier checkpoint or delete the session.`);

function varintLength(value: number): number {
  let n = 1;
  while (value >= 0x80) {
    value = Math.floor(value / 0x80);
    n++;
  }
  return n;
}

function writeVarint(out: Uint8Array, at: number, value: number): number {
  while (value >= 0x80) {
    out[at++] = (value % 0x80) | 0x80;
    value = Math.floor(value / 0x80);
  }
  out[at++] = value;
  return at;
}

function readVarint(data: Uint8Array, at: number): [number, number] {
  let value = 0;
  let scale = 1;
  for (;;) {
    if (at >= data.length) throw new Error('A stored folder of a snapshot is cut short. Restore an earlier checkpoint or delete the session.');
    const byte = data[at++];
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return [value, at];
    scale *= 0x80;
  }
}
