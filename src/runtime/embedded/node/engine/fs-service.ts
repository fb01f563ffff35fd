// The host's side of the guest's file system: each request from the engine is answered from just-bash's file system
// (the embedded runtime's ObservedFs), so a program's writes are seen by the shell, the Files tab and watch.

import type { IFileSystem } from 'just-bash';
import type { FsRequest } from './protocol';

export type FsAnswer = { kind: 'json'; value: unknown } | { kind: 'bytes'; bytes: Uint8Array } | { kind: 'error'; code: string; message: string };

type EntryType = 'file' | 'dir' | 'symlink';

/** Answers one guest file-system request; never throws (failures become `error` answers with a Node error code). */
export async function answerFsRequest(fs: IFileSystem, request: FsRequest): Promise<FsAnswer> {
  try {
    return await perform(fs, request);
  } catch (error) {
    return failure(error, request);
  }
}

async function perform(fs: IFileSystem, { op, args, data }: FsRequest): Promise<FsAnswer> {
  const path = String(args[0]);
  switch (op) {
    case 'stat':
    case 'lstat': {
      const info = op === 'stat' ? await fs.stat(path) : await fs.lstat(path);
      const type: EntryType = info.isSymbolicLink ? 'symlink' : info.isDirectory ? 'dir' : 'file';
      return json({ type, size: info.isDirectory ? 4096 : info.size, mode: info.mode, mtimeMs: info.mtime.getTime() });
    }
    case 'readFile':
      return { kind: 'bytes', bytes: await fs.readFileBuffer(path) };
    case 'writeFile':
      if (args[1] === 'a') await fs.appendFile(path, data ?? new Uint8Array(0));
      else await fs.writeFile(path, data ?? new Uint8Array(0));
      return json(null);
    case 'readdir': {
      const entries = fs.readdirWithFileTypes
        ? (await fs.readdirWithFileTypes(path)).map((e) => ({ name: e.name, type: e.isSymbolicLink ? 'symlink' : e.isDirectory ? 'dir' : 'file' }))
        : await Promise.all((await fs.readdir(path)).map(async (name) => ({ name, type: await typeOf(fs, `${path}/${name}`) })));
      return json(entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)));
    }
    case 'mkdir':
      await fs.mkdir(path, { recursive: args[1] === true });
      return json(null);
    case 'rm':
      await fs.rm(path, { recursive: args[1] === true, force: args[2] === true });
      return json(null);
    case 'rename':
      await fs.mv(path, String(args[1]));
      return json(null);
    case 'copyFile':
      await fs.writeFile(String(args[1]), await fs.readFileBuffer(path));
      return json(null);
    case 'realpath':
      return json(await fs.realpath(path));
    case 'readlink':
      return json(await fs.readlink(path));
    case 'symlink':
      await fs.symlink(path, String(args[1]));
      return json(null);
    case 'chmod':
      await fs.chmod(path, Number(args[1]));
      return json(null);
    case 'utimes':
      await fs.utimes(path, new Date(Number(args[1])), new Date(Number(args[2])));
      return json(null);
    default:
      return { kind: 'error', code: 'ENOSYS', message: `ENOSYS: function not implemented, ${op}` };
  }
}

async function typeOf(fs: IFileSystem, path: string): Promise<EntryType> {
  const info = await fs.lstat(path);
  return info.isSymbolicLink ? 'symlink' : info.isDirectory ? 'dir' : 'file';
}

function json(value: unknown): FsAnswer {
  return { kind: 'json', value };
}

/** just-bash's errors start with the errno code ("ENOENT: no such file or directory, ..."); keep it as Node does. */
function failure(error: unknown, request: FsRequest): FsAnswer {
  const message = error instanceof Error ? error.message : String(error);
  const code = /^(E[A-Z]+)\b/.exec(message)?.[1] ?? 'EIO';
  const syscall = SYSCALLS[request.op] ?? request.op;
  const paths = request.op === 'rename' || request.op === 'copyFile' || request.op === 'symlink'
    ? `'${String(request.args[0])}' -> '${String(request.args[1])}'`
    : `'${String(request.args[0])}'`;
  return { kind: 'error', code, message: `${code}: ${DESCRIPTIONS[code] ?? message.replace(/^E[A-Z]+:\s*/, '')}, ${syscall} ${paths}` };
}

const SYSCALLS: Record<string, string> = {
  stat: 'stat',
  lstat: 'lstat',
  readFile: 'open',
  writeFile: 'open',
  readdir: 'scandir',
  mkdir: 'mkdir',
  rm: 'rm',
  rename: 'rename',
  copyFile: 'copyfile',
  realpath: 'realpath',
  readlink: 'readlink',
  symlink: 'symlink',
  chmod: 'chmod',
  utimes: 'utime',
};

const DESCRIPTIONS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EEXIST: 'file already exists',
  EISDIR: 'illegal operation on a directory',
  ENOTDIR: 'not a directory',
  ENOTEMPTY: 'directory not empty',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EINVAL: 'invalid argument',
};
