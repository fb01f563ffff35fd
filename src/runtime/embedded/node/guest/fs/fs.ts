// `fs` inside the guest, over the workspace: every call is a synchronous request to the host's file system (the
// engine blocks until it is answered), so the shell and the Files tab see what a program writes. The callback and
// promise forms run the same calls and report on a later tick, as Node's do. Its parts: host-calls.ts (the requests
// and the arguments as Node takes them), descriptors.ts (open files), async-forms.ts, streams.ts, entries.ts (Stats,
// Dirent, constants); this file holds the calls on paths and puts the module together.

import { systemError, nodeError } from '../node-error';
import { pathModule } from '../modules/packages';
import { asyncForms } from './async-forms';
import { createDescriptors } from './descriptors';
import { constants, Dirent, Stats, type EntryType } from './entries';
import { createHostCalls, type FsContext } from './host-calls';
import { createStreams } from './streams';

export type { FsContext };

/** Builds the fs module (with fs.promises) for one process. */
export function createFs(context: FsContext): Record<string, unknown> {
  const io = createHostCalls(context);
  const { resolve, call, json, statOf, fail, encodingOf, toBytes } = io;
  const path = pathModule();
  const descriptors = createDescriptors(io, context);
  const { readBytes } = descriptors;

  const sync = {
    existsSync: (given: unknown) => {
      try {
        return statOf(resolve(given)) !== undefined;
      } catch {
        return false;
      }
    },
    accessSync: (given: unknown, mode: unknown = constants.F_OK) => {
      const absolute = resolve(given, 'access');
      const reply = statOf(absolute);
      if (!reply) fail('ENOENT', 'no such file or directory', 'access', absolute);
      // The sandbox's one user owns every file; execute needs an x bit, as it does for root.
      else if (typeof mode === 'number' && mode & constants.X_OK && (reply.mode & 0o111) === 0) fail('EACCES', 'permission denied', 'access', absolute);
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
    ...descriptors.calls,
  };

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
  const forms = asyncForms(sync);
  const fs: Record<string, unknown> = { ...sync, constants, Stats, Dirent, ...forms.callbacks };
  fs.exists = (given: unknown, callback: (exists: boolean) => void) => setTimeout(() => callback(sync.existsSync(given)), 0);
  fs.promises = { constants, ...forms.promises };
  const streams = createStreams(io, readBytes);
  fs.createReadStream = streams.createReadStream;
  fs.createWriteStream = streams.createWriteStream;
  const unavailable = (name: string) => () => {
    throw nodeError(Error, 'ERR_CONCH_UNAVAILABLE', `fs.${name} is not available in Conch's embedded runtime; use the WebContainer runtime for it`);
  };
  fs.watch = unavailable('watch');
  fs.watchFile = unavailable('watchFile');
  fs.unwatchFile = () => undefined;
  return fs;
}
