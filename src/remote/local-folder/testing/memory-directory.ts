// A local folder in memory with the File System Access API's behaviour, for Node tests: names checked as the spec
// checks them, NotFoundError / TypeMismatchError / InvalidModificationError DOMExceptions, a getFile() snapshot that
// refuses to read once the file changed (as Chromium's does), and writables that replace the file only on close().
// Beside the API it has what a test needs: outside edits with a chosen modification time, a write that fails on
// purpose, a count of file reads, and the permission a browser would answer.
import type {
  FolderFileHandle,
  FolderFileSnapshot,
  FolderHandle,
  FolderWritable,
  PermissionMode,
  PermissionState,
} from '../folder-handle';

/** What the whole tree shares: the clock, the permission, the faults, the counters. */
export class MemoryDisk {
  /** Milliseconds; every change moves it on by a second unless the change names its own time. */
  clock = 1_700_000_000_000;
  permission: PermissionState = 'granted';
  /** What requestPermission answers when called with a user gesture. */
  answerOnRequest: PermissionState = 'granted';
  /** Whether the page has a user gesture right now (requestPermission throws SecurityError without one). */
  userActivation = false;
  /** File contents read through arrayBuffer(), path by path. */
  readonly reads: string[] = [];
  /** Paths whose next writable fails: at write() or at close(). */
  readonly failingWrites = new Map<string, 'write' | 'close'>();
  /** Writes that replaced a file, in order. */
  readonly writes: string[] = [];

  tick(): number {
    this.clock += 1000;
    return this.clock;
  }
}

class MemoryFile implements FolderFileHandle {
  readonly kind = 'file';
  data = new Uint8Array(0);
  lastModified: number;
  /** Moves on at each change, so an older snapshot knows it is stale. */
  version = 0;

  constructor(readonly name: string, readonly path: string, private readonly disk: MemoryDisk) {
    this.lastModified = disk.tick();
  }

  replace(data: Uint8Array, lastModified = this.disk.tick()): void {
    this.data = data.slice();
    this.lastModified = lastModified;
    this.version++;
  }

  async getFile(): Promise<FolderFileSnapshot> {
    const { data, lastModified, version, disk, path } = this;
    return {
      size: data.length,
      lastModified,
      arrayBuffer: async () => {
        if (this.version !== version) {
          throw new DOMException(`${path} was modified after this snapshot was taken.`, 'NotReadableError');
        }
        disk.reads.push(path);
        return data.slice().buffer;
      },
    };
  }

  async createWritable(): Promise<FolderWritable> {
    const chunks: Uint8Array[] = [];
    let state: 'open' | 'closed' | 'aborted' = 'open';
    const fault = this.disk.failingWrites.get(this.path);
    if (fault) this.disk.failingWrites.delete(this.path);
    const fail = () => new DOMException(`Writing ${this.path} failed (a fault the test asked for).`, 'QuotaExceededError');
    const open = () => {
      if (state !== 'open') throw new TypeError(`The writable for ${this.path} is already ${state}.`);
    };
    return {
      write: async (data) => {
        open();
        if (fault === 'write') {
          state = 'aborted';
          throw fail();
        }
        chunks.push(data.slice());
      },
      close: async () => {
        open();
        state = 'closed';
        if (fault === 'close') throw fail();
        this.replace(concat(chunks));
        this.disk.writes.push(this.path);
      },
      abort: async () => {
        state = 'aborted';
      },
    };
  }
}

export class MemoryDirectory implements FolderHandle {
  readonly kind = 'directory';
  private readonly entries = new Map<string, MemoryFile | MemoryDirectory>();

  constructor(readonly name: string, readonly path: string, readonly disk: MemoryDisk) {}

  async *values(): AsyncIterable<MemoryFile | MemoryDirectory> {
    // A copy: the real API's iteration is not disturbed by changes made while it runs.
    for (const entry of [...this.entries.values()]) yield entry;
  }

  async getFileHandle(name: string, options: { create?: boolean } = {}): Promise<FolderFileHandle> {
    checkName(name);
    const entry = this.entries.get(name);
    if (entry instanceof MemoryFile) return entry;
    if (entry) throw new DOMException(`${this.childPath(name)} is a folder, not a file.`, 'TypeMismatchError');
    if (!options.create) throw new DOMException(`${this.childPath(name)} was not found.`, 'NotFoundError');
    const file = new MemoryFile(name, this.childPath(name), this.disk);
    this.entries.set(name, file);
    return file;
  }

  async getDirectoryHandle(name: string, options: { create?: boolean } = {}): Promise<MemoryDirectory> {
    checkName(name);
    const entry = this.entries.get(name);
    if (entry instanceof MemoryDirectory) return entry;
    if (entry) throw new DOMException(`${this.childPath(name)} is a file, not a folder.`, 'TypeMismatchError');
    if (!options.create) throw new DOMException(`${this.childPath(name)} was not found.`, 'NotFoundError');
    const folder = new MemoryDirectory(name, this.childPath(name), this.disk);
    this.entries.set(name, folder);
    return folder;
  }

  async removeEntry(name: string, options: { recursive?: boolean } = {}): Promise<void> {
    checkName(name);
    const entry = this.entries.get(name);
    if (!entry) throw new DOMException(`${this.childPath(name)} was not found.`, 'NotFoundError');
    if (entry instanceof MemoryDirectory && entry.entries.size > 0 && !options.recursive) {
      throw new DOMException(`${this.childPath(name)} is a folder that is not empty.`, 'InvalidModificationError');
    }
    if (entry instanceof MemoryFile) entry.version++;
    this.entries.delete(name);
  }

  async queryPermission(descriptor: PermissionMode): Promise<PermissionState> {
    checkMode(descriptor);
    return this.disk.permission;
  }

  async requestPermission(descriptor: PermissionMode): Promise<PermissionState> {
    checkMode(descriptor);
    if (this.disk.permission !== 'prompt') return this.disk.permission;
    if (!this.disk.userActivation) throw new DOMException('User activation is required to request permissions.', 'SecurityError');
    this.disk.permission = this.disk.answerOnRequest;
    return this.disk.permission;
  }

  // What a test does from outside the API: another program editing the folder.

  /** Writes `content` at `path` (folders made on the way), as another program would; `lastModified` to fake a clock. */
  put(path: string, content: string | Uint8Array, lastModified?: number): void {
    const segments = path.split('/');
    let folder: MemoryDirectory = this;
    for (const segment of segments.slice(0, -1)) {
      let next = folder.entries.get(segment);
      if (!next) folder.entries.set(segment, (next = new MemoryDirectory(segment, folder.childPath(segment), this.disk)));
      if (!(next instanceof MemoryDirectory)) throw new Error(`${next.path} is a file; cannot put ${path} inside it.`);
      folder = next;
    }
    const name = segments.at(-1) ?? '';
    let file = folder.entries.get(name);
    if (!file) folder.entries.set(name, (file = new MemoryFile(name, folder.childPath(name), this.disk)));
    if (!(file instanceof MemoryFile)) throw new Error(`${file.path} is a folder; cannot put a file there.`);
    file.replace(typeof content === 'string' ? encoder.encode(content) : content, lastModified);
  }

  /** Removes the file at `path` as another program would. */
  delete(path: string): void {
    const file = this.find(path);
    if (!(file instanceof MemoryFile)) throw new Error(`No file at ${path} to delete.`);
    const parent = this.find(path.split('/').slice(0, -1).join('/'));
    if (parent instanceof MemoryDirectory) parent.entries.delete(file.name);
    file.version++;
  }

  /** The file's text, or null when there is no file at `path`. */
  text(path: string): string | null {
    const file = this.find(path);
    return file instanceof MemoryFile ? decoder.decode(file.data) : null;
  }

  /** The file's size and modification time, or null. */
  stat(path: string): { size: number; lastModified: number } | null {
    const file = this.find(path);
    return file instanceof MemoryFile ? { size: file.data.length, lastModified: file.lastModified } : null;
  }

  /** Every file's path under this folder, sorted. */
  filePaths(): string[] {
    const out: string[] = [];
    const walk = (folder: MemoryDirectory, prefix: string) => {
      for (const [name, entry] of folder.entries) {
        if (entry instanceof MemoryFile) out.push(prefix + name);
        else walk(entry, `${prefix}${name}/`);
      }
    };
    walk(this, '');
    return out.sort();
  }

  private find(path: string): MemoryFile | MemoryDirectory | null {
    let entry: MemoryFile | MemoryDirectory | undefined = this;
    for (const segment of path.split('/').filter(Boolean)) {
      if (!(entry instanceof MemoryDirectory)) return null;
      entry = entry.entries.get(segment);
    }
    return entry ?? null;
  }

  private childPath(name: string): string {
    return this.path === '' ? name : `${this.path}/${name}`;
  }
}

/** A folder named `name` holding `files` (path -> text or bytes), every file with its own modification time. */
export function memoryFolder(name: string, files: Record<string, string | Uint8Array> = {}): MemoryDirectory {
  const root = new MemoryDirectory(name, '', new MemoryDisk());
  for (const [path, content] of Object.entries(files)) root.put(path, content);
  return root;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

// The spec's "valid file name" on Linux and macOS: not empty, not "." or "..", no "/".
function checkName(name: string): void {
  if (name === '' || name === '.' || name === '..' || name.includes('/')) {
    throw new TypeError(`Name is not allowed: "${name}".`);
  }
}

function checkMode(descriptor: PermissionMode): void {
  if (descriptor.mode !== 'readwrite' && descriptor.mode !== 'read') throw new TypeError(`Unknown mode "${String(descriptor.mode)}".`);
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}
