// fs's file descriptors: a file opened in the guest is held whole in memory, read and written at its position, and
// written back to the host on close or fsync; fd 0 reads the process's stdin, fds 1 and 2 write to its output.

import { host } from '../host';
import { bufferModule } from '../modules/packages';
import { constants, Stats } from './entries';
import type { FsContext, HostCalls } from './host-calls';

type Buffer = import('buffer').Buffer;
type OpenFile = { path: string; data: Uint8Array; position: number; writable: boolean; append: boolean; dirty: boolean };

/** One process's descriptor table: the fd calls, and whole reads of a path or an fd. */
export function createDescriptors(io: HostCalls, context: FsContext) {
  const Buffer = () => bufferModule().Buffer;
  const { resolve, call, statOf, fail, toBytes } = io;
  const files = new Map<number, OpenFile>();
  let nextFd = 3;

  /** The whole content of a path, an open fd or stdin (fd 0, /dev/stdin). */
  const readBytes = (target: unknown): Buffer => {
    if (target === 0 || target === '/dev/stdin') return Buffer().from(context.stdin());
    if (typeof target === 'number') {
      const file = files.get(target) ?? fail('EBADF', 'bad file descriptor', 'read', String(target));
      return Buffer().from(file.data);
    }
    const absolute = resolve(target);
    if (statOf(absolute)?.type === 'dir') fail('EISDIR', 'illegal operation on a directory', 'read', absolute);
    const bytes = call('readFile', [absolute]) as ArrayBuffer;
    return Buffer().from(bytes);
  };

  const calls = {
    openSync: (given: unknown, flags: string | number = 'r') => {
      const absolute = resolve(given, 'open');
      const flag = typeof flags === 'number' ? (flags & constants.O_APPEND ? 'a' : flags & (constants.O_WRONLY | constants.O_RDWR) ? 'w' : 'r') : flags;
      const exists = statOf(absolute);
      if (flag.startsWith('r') && !exists) fail('ENOENT', 'no such file or directory', 'open', absolute);
      if (flag.includes('x') && exists) fail('EEXIST', 'file already exists', 'open', absolute);
      if (exists?.type === 'dir' && !flag.startsWith('r')) fail('EISDIR', 'illegal operation on a directory', 'open', absolute);
      const truncate = flag.startsWith('w');
      const data = exists && !truncate && exists.type === 'file' ? new Uint8Array(call('readFile', [absolute]) as ArrayBuffer) : new Uint8Array(0);
      const fd = nextFd++;
      files.set(fd, { path: absolute, data, position: flag.startsWith('a') ? data.length : 0, writable: !flag.startsWith('r') || flag.includes('+'), append: flag.startsWith('a'), dirty: !exists || truncate });
      if (!exists || truncate) call('writeFile', [absolute, 'w'], data);
      return fd;
    },
    closeSync: (fd: number) => {
      const file = files.get(fd);
      if (!file) {
        if (fd >= 0 && fd <= 2) return;
        fail('EBADF', 'bad file descriptor', 'close', String(fd));
      }
      if (file!.dirty) call('writeFile', [file!.path, 'w'], file!.data);
      files.delete(fd);
    },
    fstatSync: (fd: number) => {
      const file = files.get(fd) ?? fail('EBADF', 'bad file descriptor', 'fstat', String(fd));
      return new Stats({ type: 'file', size: file.data.length, mode: 0o644, mtimeMs: Date.now() });
    },
    fsyncSync: (fd: number) => {
      const file = files.get(fd);
      if (file?.dirty) call('writeFile', [file.path, 'w'], file.data);
    },
    readSync: (fd: number, buffer: Uint8Array, offsetOrOptions?: unknown, length?: number, position?: number | null) => {
      if (fd === 0) {
        const bytes = Buffer().from(context.stdin());
        const count = Math.min(bytes.length, buffer.length);
        buffer.set(bytes.subarray(0, count));
        return count;
      }
      const file = files.get(fd) ?? fail('EBADF', 'bad file descriptor', 'read', String(fd));
      const options = typeof offsetOrOptions === 'object' && offsetOrOptions !== null ? (offsetOrOptions as { offset?: number; length?: number; position?: number }) : { offset: offsetOrOptions as number | undefined, length, position: position ?? undefined };
      const offset = options.offset ?? 0;
      const start = options.position ?? file.position;
      const count = Math.max(0, Math.min(options.length ?? buffer.length - offset, file.data.length - start));
      buffer.set(file.data.subarray(start, start + count), offset);
      if (options.position === undefined || options.position === null) file.position += count;
      return count;
    },
    writeSync: (fd: number, data: unknown, offsetOrPosition?: unknown, lengthOrEncoding?: unknown) => {
      const bytes =
        typeof data === 'string'
          ? Buffer().from(data, typeof lengthOrEncoding === 'string' ? (lengthOrEncoding as BufferEncoding) : 'utf8')
          : toBytes(data).subarray(typeof offsetOrPosition === 'number' ? offsetOrPosition : 0, typeof lengthOrEncoding === 'number' ? (typeof offsetOrPosition === 'number' ? offsetOrPosition : 0) + lengthOrEncoding : undefined);
      if (fd === 1 || fd === 2) {
        host.write(fd, Buffer().from(bytes).toString());
        return bytes.length;
      }
      const file = files.get(fd) ?? fail('EBADF', 'bad file descriptor', 'write', String(fd));
      const at = file.append ? file.data.length : file.position;
      const grown = new Uint8Array(Math.max(file.data.length, at + bytes.length));
      grown.set(file.data);
      grown.set(bytes, at);
      file.data = grown;
      file.position = at + bytes.length;
      file.dirty = true;
      return bytes.length;
    },
  };
  return { readBytes, calls };
}
