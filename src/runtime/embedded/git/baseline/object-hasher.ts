// Git object ids for a whole tree at once: one wasm SHA-1 (hash-wasm), made once and then used synchronously, so
// 20,000 blobs are hashed in one pass at a few hundred MB/s with no round trip per file (Web Crypto would cost a
// task each, a JS SHA-1 runs at a third of the speed).
import { createSHA1, type IHasher } from 'hash-wasm';

let made: Promise<IHasher> | null = null;

/** A synchronous hasher of git objects and plain bytes. */
export type ObjectHasher = {
  /** The object's id (40 hex digits): the SHA-1 of `<type> <length>\0<body>`. */
  objectId(type: 'blob' | 'tree' | 'commit', body: Uint8Array): string;
  /** The 20-byte SHA-1 of `bytes` (a pack's or an index's trailer). */
  digest(bytes: Uint8Array): Uint8Array;
};

export async function objectHasher(): Promise<ObjectHasher> {
  const sha1 = await (made ??= createSHA1());
  const header = new Uint8Array(32);
  return {
    objectId(type, body) {
      // `<type> <length>\0`, all ASCII, written in place rather than encoded 20,000 times
      const text = `${type} ${body.length}`;
      for (let i = 0; i < text.length; i++) header[i] = text.charCodeAt(i);
      header[text.length] = 0;
      sha1.init();
      sha1.update(header.subarray(0, text.length + 1));
      sha1.update(body);
      return sha1.digest('hex');
    },
    digest(bytes) {
      sha1.init();
      sha1.update(bytes);
      return sha1.digest('binary');
    },
  };
}
