// `fs` inside the guest, over the workspace: every call is a synchronous request to the host's file system (the
// engine blocks until it is answered), so the shell and the Files tab see what a program writes. The callback and
// promise forms run the same calls and report on a later tick, as Node's do.

import { host, toArrayBuffer } from '../host';
import { systemError, nodeError } from '../node-error';
import { bufferModule, pathModule, streamModule } from '../modules/packages';
import { constants, Dirent, Stats, type EntryType, type StatReply } from './entries';

type Buffer = import('buffer').Buffer;
type OpenFile = { path: string; data: Uint8Array; position: number; writable: boolean; append: boolean; dirty: boolean };

/** The guest's cwd and stdin, which relative paths and fd 0 depend on. */
export type FsContext = { cwd(): string; stdin(): string };

/** Builds the fs module (with fs.promises) for one process. */
export function createFs(context: FsContext): Record<string, unknown> {
  const Buffer = () => bufferModule().Buffer;
  const path = pathModule();
  const files = new Map<number, OpenFile>();
  let nextFd = 3;

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

  const sync = {
    existsSync: (given: unknown) => {
      try {
        return statOf(resolve(given)) !== undefined;
      } catch {
        return false;
      }
    },
    accessSync: (given: unknown) => {
      const absolute = resolve(given, 'access');
      if (!statOf(absolute)) fail('ENOENT', 'no such file or directory', 'access', absolute);
    },
    statSync: (given: unknown, options?: { throwIfNoEntry?: boolean }) => {
      const absolute = resolve(given, 'stat');
      const reply = statOf(absolute);
      if (!reply) {
        if (options?.throwIfNoEntry === false) return undefined;
        fail('ENOENT', 'no such file or directory', 'stat', absolute);
      }
      return new Stats(reply!);
    },
    lstatSync: (given: unknown, options?: { throwIfNoEntry?: boolean }) => {
      const absolute = resolve(given, 'lstat');
      const reply = statOf(absolute, false);
      if (!reply) {
        if (options?.throwIfNoEntry === false) return undefined;
        fail('ENOENT', 'no such file or directory', 'lstat', absolute);
      }
      return new Stats(reply!);
    },
    readFileSync: (target: unknown, options?: unknown) => {
      const bytes = readBytes(target);
      const encoding = encodingOf(options);
      return encoding ? bytes.toString(encoding) : bytes;
    },
    writeFileSync: (target: unknown, data: unknown, options?: unknown) => {
      if (typeof target === 'number') return sync.writeSync(target, data);
      const flag = (options as { flag?: string } | undefined)?.flag ?? 'w';
      const absolute = resolve(target);
      if (statOf(absolute)?.type === 'dir') fail('EISDIR', 'illegal operation on a directory', 'open', absolute);
      if (flag.startsWith('wx') && statOf(absolute)) fail('EEXIST', 'file already exists', 'open', absolute);
      const parent = path.dirname(absolute);
      if (statOf(parent)?.type !== 'dir') fail('ENOENT', 'no such file or directory', 'open', absolute);
      call('writeFile', [absolute, flag.startsWith('a') ? 'a' : 'w'], toBytes(data, options));
      return undefined;
    },
    appendFileSync: (target: unknown, data: unknown, options?: unknown) => {
      if (typeof target === 'number') return sync.writeSync(target, data);
      const absolute = resolve(target);
      if (statOf(path.dirname(absolute))?.type !== 'dir') fail('ENOENT', 'no such file or directory', 'open', absolute);
      call('writeFile', [absolute, 'a'], toBytes(data, options));
      return undefined;
    },
    readdirSync: (given: unknown, options?: unknown) => {
      const absolute = resolve(given, 'scandir');
      const info = statOf(absolute) ?? fail('ENOENT', 'no such file or directory', 'scandir', absolute);
      if (info.type !== 'dir') fail('ENOTDIR', 'not a directory', 'scandir', absolute);
      const withTypes = (options as { withFileTypes?: boolean } | undefined)?.withFileTypes === true;
      const recursive = (options as { recursive?: boolean } | undefined)?.recursive === true;
      const out: (string | Dirent)[] = [];
      const walk = (dir: string, prefix: string) => {
        for (const entry of json<{ name: string; type: EntryType }[]>('readdir', [dir])) {
          out.push(withTypes ? new Dirent(entry.name, entry.type, dir) : prefix + entry.name);
          if (recursive && entry.type === 'dir') walk(`${dir === '/' ? '' : dir}/${entry.name}`, `${prefix}${entry.name}/`);
        }
      };
      walk(absolute, '');
      return out;
    },
    mkdirSync: (given: unknown, options?: unknown) => {
      const absolute = resolve(given, 'mkdir');
      const recursive = typeof options === 'object' && options !== null && (options as { recursive?: boolean }).recursive === true;
      const existing = statOf(absolute);
      if (existing) {
        if (recursive && existing.type === 'dir') return undefined;
        fail('EEXIST', 'file already exists', 'mkdir', absolute);
      }
      if (!recursive && statOf(path.dirname(absolute))?.type !== 'dir') fail('ENOENT', 'no such file or directory', 'mkdir', absolute);
      let first: string | undefined;
      if (recursive) {
        for (let dir = absolute; !statOf(dir); dir = path.dirname(dir)) first = dir;
      }
      call('mkdir', [absolute, recursive]);
      return recursive ? first : undefined;
    },
    mkdtempSync: (prefix: string) => {
      const suffix = Math.random().toString(36).slice(2, 8);
      const absolute = resolve(`${prefix}${suffix}`);
      call('mkdir', [absolute, true]);
      return absolute;
    },
    rmSync: (given: unknown, options?: { recursive?: boolean; force?: boolean }) => {
      const absolute = resolve(given, 'rm');
      const info = statOf(absolute, false);
      if (!info) {
        if (options?.force) return;
        fail('ENOENT', 'no such file or directory', 'stat', absolute);
      }
      if (info!.type === 'dir' && !options?.recursive) {
        const error = systemError('ERR_FS_EISDIR', `Path is a directory: rm returned EISDIR (is a directory) ${absolute}`, 'rm', absolute);
        throw error;
      }
      call('rm', [absolute, options?.recursive === true, options?.force === true]);
    },
    rmdirSync: (given: unknown, options?: { recursive?: boolean }) => {
      const absolute = resolve(given, 'rmdir');
      const info = statOf(absolute, false) ?? fail('ENOENT', 'no such file or directory', 'rmdir', absolute);
      if (info.type !== 'dir') fail('ENOTDIR', 'not a directory', 'rmdir', absolute);
      if (!options?.recursive && json<unknown[]>('readdir', [absolute]).length > 0) fail('ENOTEMPTY', 'directory not empty', 'rmdir', absolute);
      call('rm', [absolute, true, false]);
    },
    unlinkSync: (given: unknown) => {
      const absolute = resolve(given, 'unlink');
      const info = statOf(absolute, false) ?? fail('ENOENT', 'no such file or directory', 'unlink', absolute);
      if (info.type === 'dir') fail('EISDIR', 'illegal operation on a directory', 'unlink', absolute);
      call('rm', [absolute, false, false]);
    },
    renameSync: (from: unknown, to: unknown) => {
      const source = resolve(from, 'rename');
      const target = resolve(to, 'rename');
      if (!statOf(source, false)) throw systemError('ENOENT', `ENOENT: no such file or directory, rename '${source}' -> '${target}'`, 'rename', source, target);
      if (statOf(target)?.type === 'file') call('rm', [target, false, true]);
      call('rename', [source, target]);
    },
    copyFileSync: (from: unknown, to: unknown, mode?: number) => {
      const source = resolve(from, 'copyfile');
      const target = resolve(to, 'copyfile');
      if (!statOf(source)) throw systemError('ENOENT', `ENOENT: no such file or directory, copyfile '${source}' -> '${target}'`, 'copyfile', source, target);
      if (mode && mode & constants.COPYFILE_EXCL && statOf(target)) fail('EEXIST', 'file already exists', 'copyfile', target);
      call('copyFile', [source, target]);
    },
    cpSync: (from: unknown, to: unknown, options?: { recursive?: boolean }) => {
      const source = resolve(from);
      const target = resolve(to);
      const info = statOf(source) ?? fail('ENOENT', 'no such file or directory', 'cp', source);
      if (info.type !== 'dir') return call('copyFile', [source, target]);
      if (!options?.recursive) throw systemError('ERR_FS_EISDIR', `Recursive option is required to copy a directory: ${source}`, 'cp', source);
      call('mkdir', [target, true]);
      for (const entry of json<{ name: string }[]>('readdir', [source])) sync.cpSync(`${source}/${entry.name}`, `${target}/${entry.name}`, options);
      return undefined;
    },
    realpathSync: Object.assign(
      (given: unknown) => {
        const absolute = resolve(given, 'realpath');
        if (!statOf(absolute)) fail('ENOENT', 'no such file or directory', 'realpath', absolute);
        return json<string>('realpath', [absolute]);
      },
      { native: (given: unknown) => sync.realpathSync(given) },
    ),
    readlinkSync: (given: unknown) => json<string>('readlink', [resolve(given, 'readlink')]),
    symlinkSync: (target: unknown, given: unknown) => void call('symlink', [String(target), resolve(given, 'symlink')]),
    linkSync: (from: unknown, to: unknown) => sync.copyFileSync(from, to),
    chmodSync: (given: unknown, mode: number | string) => void call('chmod', [resolve(given, 'chmod'), typeof mode === 'string' ? parseInt(mode, 8) : mode]),
    chownSync: () => undefined,
    utimesSync: (given: unknown, atime: unknown, mtime: unknown) => {
      const ms = (time: unknown) => (time instanceof Date ? time.getTime() : Number(time) * 1000);
      call('utimes', [resolve(given, 'utime'), ms(atime), ms(mtime)]);
    },
    truncateSync: (given: unknown, length = 0) => {
      const absolute = resolve(given);
      const bytes = readBytes(absolute);
      const out = new Uint8Array(length);
      out.set(bytes.subarray(0, length));
      call('writeFile', [absolute, 'w'], out);
    },
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

  const callbackForm = (fn: (...args: unknown[]) => unknown) =>
    function (...args: unknown[]) {
      const callback = args[args.length - 1];
      if (typeof callback !== 'function') throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "cb" argument must be of type function. Received undefined');
      const rest = args.slice(0, -1);
      setTimeout(() => {
        let result: unknown;
        try {
          result = fn(...rest);
        } catch (error) {
          callback(error);
          return;
        }
        callback(null, result);
      }, 0);
    };
  const promiseForm = (fn: (...args: unknown[]) => unknown) =>
    (...args: unknown[]) =>
      new Promise((resolvePromise, reject) => {
        setTimeout(() => {
          try {
            resolvePromise(fn(...args));
          } catch (error) {
            reject(error);
          }
        }, 0);
      });

  const names: [string, keyof typeof sync][] = [
    ['access', 'accessSync'],
    ['stat', 'statSync'],
    ['lstat', 'lstatSync'],
    ['readFile', 'readFileSync'],
    ['writeFile', 'writeFileSync'],
    ['appendFile', 'appendFileSync'],
    ['readdir', 'readdirSync'],
    ['mkdir', 'mkdirSync'],
    ['mkdtemp', 'mkdtempSync'],
    ['rm', 'rmSync'],
    ['rmdir', 'rmdirSync'],
    ['unlink', 'unlinkSync'],
    ['rename', 'renameSync'],
    ['copyFile', 'copyFileSync'],
    ['cp', 'cpSync'],
    ['realpath', 'realpathSync'],
    ['readlink', 'readlinkSync'],
    ['symlink', 'symlinkSync'],
    ['link', 'linkSync'],
    ['chmod', 'chmodSync'],
    ['chown', 'chownSync'],
    ['utimes', 'utimesSync'],
    ['truncate', 'truncateSync'],
    ['open', 'openSync'],
    ['close', 'closeSync'],
    ['fstat', 'fstatSync'],
    ['fsync', 'fsyncSync'],
    ['read', 'readSync'],
    ['write', 'writeSync'],
  ];
  // Errors name the path as the program gave it, as Node's do (the host answers with absolute paths).
  const asGiven = <F extends (...args: never[]) => unknown>(fn: F): F =>
    ((...args: Parameters<F>) => {
      try {
        return fn(...args);
      } catch (error) {
        const given = args[0] as unknown;
        const failure = error as Error & { path?: string };
        if (typeof given === 'string' && typeof failure.path === 'string' && failure.path !== given && !given.startsWith('file:')) {
          failure.message = failure.message.split(`'${failure.path}'`).join(`'${given}'`);
          failure.path = given;
        }
        throw failure;
      }
    }) as F;
  for (const name of Object.keys(sync) as (keyof typeof sync)[]) (sync as Record<string, unknown>)[name] = asGiven(sync[name] as (...args: never[]) => unknown);
  const fs: Record<string, unknown> = { ...sync, constants, Stats, Dirent };
  const promises: Record<string, unknown> = { constants };
  for (const [name, syncName] of names) {
    const fn = sync[syncName] as (...args: unknown[]) => unknown;
    fs[name] = callbackForm(fn);
    if (!['open', 'close', 'fstat', 'fsync', 'read', 'write'].includes(name)) promises[name] = promiseForm(fn);
  }
  fs.exists = (given: unknown, callback: (exists: boolean) => void) => setTimeout(() => callback(sync.existsSync(given)), 0);
  fs.promises = promises;
  fs.createReadStream = (given: unknown, options?: unknown) => {
    const { Readable } = streamModule();
    const encoding = encodingOf(options);
    let done = false;
    return new Readable({
      encoding,
      read(this: { push(chunk: unknown): void; destroy(error: Error): void }) {
        if (done) return;
        done = true;
        try {
          this.push(readBytes(given));
          this.push(null);
        } catch (error) {
          this.destroy(error as Error);
        }
      },
    });
  };
  fs.createWriteStream = (given: unknown, options?: { flags?: string }) => {
    const { Writable } = streamModule();
    const absolute = resolve(given);
    call('writeFile', [absolute, options?.flags?.startsWith('a') ? 'a' : 'w'], new Uint8Array(0));
    const stream = new Writable({
      write(chunk: unknown, _encoding: unknown, callback: (error?: Error | null) => void) {
        try {
          call('writeFile', [absolute, 'a'], toBytes(chunk));
          callback();
        } catch (error) {
          callback(error as Error);
        }
      },
    });
    return Object.assign(stream, { path: absolute });
  };
  const unavailable = (name: string) => () => {
    throw nodeError(Error, 'ERR_CONCH_UNAVAILABLE', `fs.${name} is not available in Conch's embedded runtime; use the WebContainer runtime for it`);
  };
  fs.watch = unavailable('watch');
  fs.watchFile = unavailable('watchFile');
  fs.unwatchFile = () => undefined;
  return fs;
}
