// The host's answers to the browser engine's host ops (host-ops.ts), in the runtime's worker: kept apart from the
// op names so the engine's bundle, which needs only the names, does not pull in sucrase.

import type { FsRequest } from '../engine/protocol';
import type { FsAnswer } from '../engine/fs-service';
import { loadTypeStripper } from '../type-stripper';
import { STRIP_TYPES_OP } from './host-ops';

const MAX_SOURCE_BYTES = 32 * 1024 * 1024;
let stripper: ReturnType<typeof loadTypeStripper> | undefined;

/** Answers a host op; a malformed request or a syntax error is an error answer, never a throw. */
export async function answerHostRequest(request: FsRequest): Promise<FsAnswer> {
  if (request.op !== STRIP_TYPES_OP) return { kind: 'error', code: 'ENOSYS', message: `ENOSYS: function not implemented, ${request.op}` };
  const [filename] = request.args;
  if (typeof filename !== 'string' || !(request.data instanceof Uint8Array) || request.data.byteLength > MAX_SOURCE_BYTES) {
    return { kind: 'error', code: 'EINVAL', message: 'EINVAL: a type-stripping request needs a file name and at most 32 MB of source' };
  }
  try {
    const strip = await (stripper ??= loadTypeStripper());
    return { kind: 'json', value: strip(new TextDecoder().decode(request.data), filename) };
  } catch (error) {
    return { kind: 'error', code: 'ERR_SYNTAX', message: error instanceof Error ? error.message : String(error) };
  }
}
