// What fs hands back about entries: Stats, Dirent and fs.constants, shaped as Node's.

export type EntryType = 'file' | 'dir' | 'symlink';
export type StatReply = { type: EntryType; size: number; mode: number; mtimeMs: number };

const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;

/** The type questions Stats and Dirent both answer (a workspace holds no devices, pipes or sockets). */
abstract class EntryKind {
  protected abstract readonly kind: EntryType;
  isFile(): boolean {
    return this.kind === 'file';
  }
  isDirectory(): boolean {
    return this.kind === 'dir';
  }
  isSymbolicLink(): boolean {
    return this.kind === 'symlink';
  }
  isBlockDevice(): boolean {
    return false;
  }
  isCharacterDevice(): boolean {
    return false;
  }
  isFIFO(): boolean {
    return false;
  }
  isSocket(): boolean {
    return false;
  }
}

export class Stats extends EntryKind {
  dev = 1;
  ino = 0;
  nlink = 1;
  uid = 1000;
  gid = 1000;
  rdev = 0;
  blksize = 4096;
  blocks: number;
  size: number;
  mode: number;
  atimeMs: number;
  mtimeMs: number;
  ctimeMs: number;
  birthtimeMs: number;
  atime: Date;
  mtime: Date;
  ctime: Date;
  birthtime: Date;
  protected readonly kind: EntryType;

  constructor(reply: StatReply) {
    super();
    this.kind = reply.type;
    this.size = reply.size;
    this.blocks = Math.ceil(reply.size / 512);
    this.mode = (reply.mode & 0o7777) | (reply.type === 'dir' ? S_IFDIR : reply.type === 'symlink' ? S_IFLNK : S_IFREG);
    this.atimeMs = this.mtimeMs = this.ctimeMs = this.birthtimeMs = reply.mtimeMs;
    this.atime = new Date(reply.mtimeMs);
    this.mtime = new Date(reply.mtimeMs);
    this.ctime = new Date(reply.mtimeMs);
    this.birthtime = new Date(reply.mtimeMs);
  }
}

export class Dirent extends EntryKind {
  constructor(
    readonly name: string,
    protected readonly kind: EntryType,
    readonly parentPath: string,
  ) {
    super();
  }
  get path(): string {
    return this.parentPath;
  }
}

export const constants = {
  F_OK: 0,
  R_OK: 4,
  W_OK: 2,
  X_OK: 1,
  O_RDONLY: 0,
  O_WRONLY: 1,
  O_RDWR: 2,
  O_CREAT: 64,
  O_EXCL: 128,
  O_TRUNC: 512,
  O_APPEND: 1024,
  S_IFMT: 0o170000,
  S_IFREG,
  S_IFDIR,
  S_IFLNK,
  COPYFILE_EXCL: 1,
};

