// fs's requests to the host's file system, with the arguments as Node takes them: a path as a string, a Buffer or a
// file: URL (relative to the guest's cwd), data as a string in an encoding or as bytes. A failed request throws the
// system error Node would (code, syscall, path).

import { host, toArrayBuffer } from '../host';
import { systemError, nodeError } from '../node-error';
import { bufferModule, pathModule } from '../modules/packages';
import type { StatReply } from './entries';
import { forgetListings } from '../modules/package-listings';

/** The requests that change the file system (module resolution's folder listings are dropped before each). */
const WRITES = new Set(['writeFile', 'mkdir', 'rm', 'rename', 'copyFile', 'symlink']);

/** The guest's cwd and stdin, which relative paths and fd 0 depend on. */
export type FsContext = { cwd(): string; stdin(): string };

export type HostCalls = {
  /** A path argument as an absolute path. */
  resolve(given: unknown, syscall?: string): string;
  /** One request to the host: the reply's text (JSON) or bytes. */
  call(op: string, args: unknown[], data?: Uint8Array): string | ArrayBuffer;
  /** One request whose reply is JSON. */
  json<T>(op: string, args: unknown[], data?: Uint8Array): T;
  /** The entry at `absolute` (links followed unless `follow` is false); undefined when there is none. */
  statOf(absolute: string, follow?: boolean): StatReply | undefined;
  /** Throws Node's system error `code` for `syscall` on `absolute`. */
  fail(code: string, description: string, syscall: string, absolute: string): never;
  /** The encoding an options argument asks for; undefined for bytes. */
  encodingOf(options: unknown): BufferEncoding | undefined;
  /** A data argument as bytes. */
  toBytes(data: unknown, options?: unknown): Uint8Array;
};

/** The host calls for one process's fs. */
export function createHostCalls(context: FsContext): HostCalls {
  const Buffer = () => bufferModule().Buffer;
  const path = pathModule();

  const resolve = (given: unknown, syscall = 'open'): string => {
    if (given instanceof URL || (typeof given === 'object' && given !== null && 'href' in given && 'protocol' in given)) {
      const url = given as URL;
      if (url.protocol !== 'file:') throw nodeError(TypeError, 'ERR_INVALID_URL_SCHEME', 'The URL must be of scheme file');
      return decodeURIComponent(url.pathname);
    }
    if (given instanceof Uint8Array) return resolve(Buffer().from(given).toString(), syscall);
    if (typeof given !== 'string') {
      throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "path" argument must be of type string or an instance of Buffer or URL. Received ${given === null ? 'null' : typeof given}`);
    }
    if (given.startsWith('file://')) return decodeURIComponent(new URL(given).pathname);
    return path.resolve(context.cwd(), given);
  };

  const call = (op: string, args: unknown[], data?: Uint8Array): string | ArrayBuffer => {
    if (WRITES.has(op)) forgetListings();
    try {
      return host.fs(op, JSON.stringify(args), data ? toArrayBuffer(data) : undefined);
    } catch (error) {
      const failure = error as Error & { code?: string };
      const syscall = /, (\w+) '/.exec(failure.message)?.[1] ?? op;
      throw systemError(failure.code ?? 'EIO', failure.message, syscall, typeof args[0] === 'string' ? args[0] : undefined, op === 'rename' || op === 'copyFile' ? String(args[1]) : undefined);
    }
  };
  const json = <T>(op: string, args: unknown[], data?: Uint8Array): T => JSON.parse(call(op, args, data) as string) as T;
  const statOf = (absolute: string, follow = true): StatReply | undefined => {
    try {
      return json<StatReply>(follow ? 'stat' : 'lstat', [absolute]);
    } catch (error) {
      if ((error as { code?: string }).code === 'ENOENT' || (error as { code?: string }).code === 'ENOTDIR') return undefined;
      throw error;
    }
  };
  const fail = (code: string, description: string, syscall: string, absolute: string): never => {
    throw systemError(code, `${code}: ${description}, ${syscall} '${absolute}'`, syscall, absolute);
  };
  const encodingOf = (options: unknown): BufferEncoding | undefined => {
    const encoding = typeof options === 'string' ? options : (options as { encoding?: string } | undefined)?.encoding;
    return encoding === null || encoding === undefined || encoding === 'buffer' ? undefined : (encoding as BufferEncoding);
  };
  const toBytes = (data: unknown, options?: unknown): Uint8Array => {
    if (typeof data === 'string') return Buffer().from(data, encodingOf(options) ?? 'utf8');
    if (data instanceof Uint8Array) return data;
    if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "data" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received ${data === null ? 'null' : typeof data}`);
  };
  return { resolve, call, json, statOf, fail, encodingOf, toBytes };
}
