// `crypto` inside the guest: random values and UUIDs, and hashes (md5, sha1, sha256, sha512) computed by the engine.

import { host, toArrayBuffer } from './host';
import { nodeError } from './node-error';
import { bufferModule } from './modules/packages';
import { getRandomValues, randomUUID } from './globals/web';

const ALGORITHMS: Record<string, string> = { md5: 'md5', sha1: 'sha1', 'sha-1': 'sha1', sha256: 'sha256', 'sha-256': 'sha256', sha512: 'sha512', 'sha-512': 'sha512' };

class Hash {
  private chunks: Uint8Array[] = [];
  private finished = false;
  constructor(private readonly algorithm: string) {}
  update(data: unknown, encoding?: BufferEncoding): this {
    if (this.finished) throw nodeError(Error, 'ERR_CRYPTO_HASH_FINALIZED', 'Digest already called');
    const { Buffer } = bufferModule();
    this.chunks.push(typeof data === 'string' ? Buffer.from(data, encoding ?? 'utf8') : Buffer.from(data as Uint8Array));
    return this;
  }
  digest(encoding?: BufferEncoding): unknown {
    if (this.finished) throw nodeError(Error, 'ERR_CRYPTO_HASH_FINALIZED', 'Digest already called');
    this.finished = true;
    const { Buffer } = bufferModule();
    const result = Buffer.from(host.hash(this.algorithm, toArrayBuffer(Buffer.concat(this.chunks))));
    return encoding ? result.toString(encoding) : result;
  }
  copy(): Hash {
    const copy = new Hash(this.algorithm);
    copy.chunks = this.chunks.slice();
    return copy;
  }
}

/** Builds the crypto module. */
export function createCrypto(): Record<string, unknown> {
  const unavailable = (name: string) => () => {
    throw nodeError(Error, 'ERR_CONCH_UNAVAILABLE', `crypto.${name} is not available in Conch's embedded runtime; use the WebContainer runtime for it`);
  };
  return {
    createHash: (algorithm: string) => {
      const name = ALGORITHMS[String(algorithm).toLowerCase()];
      if (!name) throw new Error('Digest method not supported');
      return new Hash(name);
    },
    getHashes: () => ['md5', 'sha1', 'sha256', 'sha512'],
    randomBytes: (size: number, callback?: (error: Error | null, bytes: unknown) => void) => {
      const bytes = bufferModule().Buffer.from(host.randomBytes(size));
      if (callback) setTimeout(() => callback(null, bytes), 0);
      return bytes;
    },
    randomInt: (min: number, max?: number) => {
      const [low, high] = max === undefined ? [0, min] : [min, max];
      const value = new Uint32Array(host.randomBytes(4))[0] / 2 ** 32;
      return low + Math.floor(value * (high - low));
    },
    randomUUID,
    getRandomValues,
    webcrypto: { getRandomValues, randomUUID },
    createHmac: unavailable('createHmac'),
    createCipheriv: unavailable('createCipheriv'),
    createDecipheriv: unavailable('createDecipheriv'),
    createSign: unavailable('createSign'),
    createVerify: unavailable('createVerify'),
    pbkdf2Sync: unavailable('pbkdf2Sync'),
    scryptSync: unavailable('scryptSync'),
  };
}
