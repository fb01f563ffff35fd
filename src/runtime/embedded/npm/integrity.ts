// Subresource Integrity as npm uses it (`sha512-<base64>`, possibly several space-separated hashes), checked with
// SubtleCrypto. Old registry entries carry only a hex sha1 `shasum`; it is turned into the same form.

const ALGORITHMS = { sha512: 'SHA-512', sha384: 'SHA-384', sha256: 'SHA-256', sha1: 'SHA-1' } as const;
type Algorithm = keyof typeof ALGORITHMS;
const STRENGTH: Algorithm[] = ['sha512', 'sha384', 'sha256', 'sha1'];

/** The strongest hash of an integrity string as `algo-base64`, or undefined when it has none npm would check. */
export function strongestHash(integrity: string | undefined): string | undefined {
  if (!integrity) return undefined;
  const hashes = integrity.trim().split(/\s+/).map((part) => part.replace(/\?.*$/, ''));
  for (const algorithm of STRENGTH) {
    const found = hashes.find((hash) => hash.startsWith(`${algorithm}-`) && hash.length > algorithm.length + 1);
    if (found) return found;
  }
  return undefined;
}

/** The integrity of a registry entry: its `integrity`, else its hex sha1 `shasum`; undefined when it has neither. */
export function integrityOf(dist: { integrity?: string; shasum?: string }): string | undefined {
  const strongest = strongestHash(dist.integrity);
  if (strongest) return strongest;
  if (dist.shasum && /^[0-9a-f]{40}$/i.test(dist.shasum)) return `sha1-${base64(hexBytes(dist.shasum))}`;
  return undefined;
}

/** The `sha512-…` integrity of `data`, as the lockfile records it. */
export async function sha512Integrity(data: Uint8Array): Promise<string> {
  return `sha512-${base64(await digest('sha512', data))}`;
}

/** True when `data` has the hash `expected` (an `algo-base64` string from strongestHash or integrityOf). */
export async function matchesIntegrity(data: Uint8Array, expected: string): Promise<boolean> {
  const dash = expected.indexOf('-');
  const algorithm = expected.slice(0, dash);
  if (!isAlgorithm(algorithm)) return false;
  return base64(await digest(algorithm, data)) === expected.slice(dash + 1);
}

async function digest(algorithm: Algorithm, data: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest(ALGORITHMS[algorithm], data as Uint8Array<ArrayBuffer>));
}

function isAlgorithm(name: string): name is Algorithm {
  return Object.hasOwn(ALGORITHMS, name);
}

function hexBytes(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
