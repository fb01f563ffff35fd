// Git blob ids computed synchronously: one SHA-1 per file with no round trip, which is what lets a status hash the
// handful of changed files in one pass (Web Crypto would cost a task per file).
import { sha1 } from '@noble/hashes/legacy.js';
import { hexOf } from '../../../object-id';

const encoder = new TextEncoder();

/** The git blob id of `data` (what `git hash-object` prints). */
export function blobIdOf(data: Uint8Array): string {
  return hexOf(sha1.create().update(encoder.encode(`blob ${data.length}\0`)).update(data).digest());
}
