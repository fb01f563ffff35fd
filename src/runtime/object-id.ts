// Git's object ids: the SHA-1 of `<type> <byte length>\0` followed by the object's bytes, as 40 lowercase hex digits.
// Snapshots key file contents and folder manifests by them, so a file is stored once however many snapshots hold
// it, and git (in the embedded runtime) can read the same objects. Hashing uses Web Crypto, which is native and off
// the calling thread in browsers and workers, and present in Node.

/** A git object id: 40 lowercase hex digits. */
export type ObjectId = string;

/** The id of the empty tree, the same in every git repository. */
export const EMPTY_TREE_ID: ObjectId = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

const OBJECT_ID = /^[0-9a-f]{40}$/;
const encoder = new TextEncoder();

/** True for a well-formed object id. */
export function isObjectId(value: unknown): value is ObjectId {
  return typeof value === 'string' && OBJECT_ID.test(value);
}

/** The git id of an object of `type` with content `body`. */
export async function gitObjectId(type: 'blob' | 'tree', body: Uint8Array): Promise<ObjectId> {
  const header = encoder.encode(`${type} ${body.length}\0`);
  const framed = new Uint8Array(header.length + body.length);
  framed.set(header);
  framed.set(body, header.length);
  return hexOf(new Uint8Array(await crypto.subtle.digest('SHA-1', framed)));
}

/** The git blob id of a file's bytes (what `git hash-object` prints). */
export function gitBlobId(data: Uint8Array): Promise<ObjectId> {
  return gitObjectId('blob', data);
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** Bytes as lowercase hex. */
export function hexOf(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += HEX[bytes[i]];
  return out;
}

/** The 20 raw bytes of an object id, written into `target` at `offset`. */
export function writeIdBytes(id: ObjectId, target: Uint8Array, offset: number): void {
  for (let i = 0; i < 20; i++) target[offset + i] = (nibble(id.charCodeAt(2 * i)) << 4) | nibble(id.charCodeAt(2 * i + 1));
}

// A lowercase hex digit's value (written for 40,000 ids at a time, so without parseInt's string slices).
function nibble(code: number): number {
  return code <= 57 ? code - 48 : code - 87;
}
