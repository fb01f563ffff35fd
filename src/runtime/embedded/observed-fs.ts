// just-bash's file system wrapped so every mutation is reported, whether it comes from a Runtime method or from a
// command run by `exec` (`echo > f`, `mv`, `rm -r`): that is how `watch` sees a command's writes without polling.

import type {
  BufferEncoding,
  CpOptions,
  FileContent,
  FsStat,
  IFileSystem,
  MkdirOptions,
  RmOptions,
} from 'just-bash';

type ReadOptions = Parameters<IFileSystem['readFile']>[1];
type WriteOptions = Parameters<IFileSystem['writeFile']>[2];
type Dirents = Awaited<ReturnType<NonNullable<IFileSystem['readdirWithFileTypes']>>>;

/**
 * An IFileSystem delegating to `inner` and calling `onMutation` with the absolute paths each change touched. `inner`
 * can be replaced (a staged workspace import swapped in whole); the shell holding this wrapper sees the new one.
 */
export class ObservedFs implements IFileSystem {
  // The optional fast paths exist when the first inner file system has them; the shell binds them once, so they
  // look the current one up at every call.
  readonly readFileBytes?: IFileSystem['readFileBytes'];
  readonly readdirWithFileTypes?: (path: string) => Promise<Dirents>;
  private current: IFileSystem;

  /**
   * `refuse` throws for paths that must not change (read-only folders); nothing is changed or reported then.
   * `detach` runs before a change just-bash makes to an entry in place (chmod, utimes), so a fork keeps its own.
   */
  constructor(
    inner: IFileSystem,
    private readonly onMutation: (absolutePaths: string[]) => void,
    private readonly refuse: (absolutePaths: string[]) => void = () => undefined,
    private readonly detach: (absolutePath: string) => Promise<void> = async () => undefined,
  ) {
    this.current = inner;
    if (inner.readFileBytes) this.readFileBytes = (path) => this.current.readFileBytes!(path);
    if (inner.readdirWithFileTypes) this.readdirWithFileTypes = (path) => this.current.readdirWithFileTypes!(path);
  }

  get inner(): IFileSystem {
    return this.current;
  }

  /** Swaps the file system underneath; it must offer the same optional methods as the first one. */
  set inner(inner: IFileSystem) {
    if ((this.readFileBytes && !inner.readFileBytes) || (this.readdirWithFileTypes && !inner.readdirWithFileTypes)) {
      throw new Error('The replacement file system lacks methods the shell already relies on.');
    }
    this.current = inner;
  }

  // Refused before it starts when it touches a read-only folder; reported even when the change fails: a recursive rm or mv that stops halfway has still changed things.
  private async mutate<T>(paths: string[], change: () => Promise<T>): Promise<T> {
    this.refuse(paths);
    try {
      return await change();
    } finally {
      this.onMutation(paths);
    }
  }

  readFile(path: string, options?: ReadOptions | BufferEncoding): Promise<string> {
    return this.inner.readFile(path, options);
  }
  readFileBuffer(path: string): Promise<Uint8Array> {
    return this.inner.readFileBuffer(path);
  }
  exists(path: string): Promise<boolean> {
    return this.inner.exists(path);
  }
  stat(path: string): Promise<FsStat> {
    return this.inner.stat(path);
  }
  lstat(path: string): Promise<FsStat> {
    return this.inner.lstat(path);
  }
  readdir(path: string): Promise<string[]> {
    return this.inner.readdir(path);
  }
  readlink(path: string): Promise<string> {
    return this.inner.readlink(path);
  }
  realpath(path: string): Promise<string> {
    return this.inner.realpath(path);
  }
  resolvePath(base: string, path: string): string {
    return this.inner.resolvePath(base, path);
  }
  getAllPaths(): string[] {
    return this.inner.getAllPaths();
  }

  writeFile(path: string, content: FileContent, options?: WriteOptions): Promise<void> {
    return this.mutate([path], () => this.inner.writeFile(path, content, options));
  }
  appendFile(path: string, content: FileContent, options?: WriteOptions): Promise<void> {
    return this.mutate([path], () => this.inner.appendFile(path, content, options));
  }
  mkdir(path: string, options?: MkdirOptions): Promise<void> {
    return this.mutate([path], () => this.inner.mkdir(path, options));
  }
  rm(path: string, options?: RmOptions): Promise<void> {
    return this.mutate([path], () => this.inner.rm(path, options));
  }
  cp(src: string, dest: string, options?: CpOptions): Promise<void> {
    return this.mutate([dest], () => this.inner.cp(src, dest, options));
  }
  mv(src: string, dest: string): Promise<void> {
    return this.mutate([src, dest], () => this.inner.mv(src, dest));
  }
  chmod(path: string, mode: number): Promise<void> {
    return this.mutate([path], async () => {
      await this.detach(path);
      await this.inner.chmod(path, mode);
    });
  }
  symlink(target: string, linkPath: string): Promise<void> {
    return this.mutate([linkPath], () => this.inner.symlink(target, linkPath));
  }
  link(existingPath: string, newPath: string): Promise<void> {
    return this.mutate([newPath], () => this.inner.link(existingPath, newPath));
  }
  utimes(path: string, atime: Date, mtime: Date): Promise<void> {
    return this.mutate([path], async () => {
      await this.detach(path);
      await this.inner.utimes(path, atime, mtime);
    });
  }
}
