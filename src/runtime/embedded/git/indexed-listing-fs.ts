// The shell's file system as just-git gets it, with folder listings answered from an index of every path. just-bash's
// in-memory readdir scans every path there is, and git lists every folder of the work tree (and of .git/objects), so
// on a 20,000-file repo listing alone made `git status` grow with the square of the repo. The index is built from
// one pass over all paths when a git command first lists a folder, and kept up to date with git's own writes.

import type { IFileSystem } from 'just-bash';
import type { FileStat, FileSystem } from 'just-git';
import { normalizeAbsolute, parentOf } from '../../paths';

/** A just-git FileSystem over `inner` whose listings come from an index of all its paths (see the file comment). */
export class IndexedListingFs implements FileSystem {
  /** Folder path -> names in it; null until a listing is asked for (built from inner.getAllPaths then). */
  private children: Map<string, Set<string>> | null = null;

  constructor(private readonly inner: IFileSystem) {}

  /** Forgets the index: the files may have been changed by something else since (call before each git command). */
  refresh(): void {
    this.children = null;
  }

  readFile(path: string): Promise<string> {
    return this.inner.readFile(path);
  }
  readFileBuffer(path: string): Promise<Uint8Array> {
    return this.inner.readFileBuffer(path);
  }
  exists(path: string): Promise<boolean> {
    return this.inner.exists(path);
  }
  stat(path: string): Promise<FileStat> {
    return this.inner.stat(path);
  }
  lstat(path: string): Promise<FileStat> {
    return this.inner.lstat(path);
  }
  readlink(path: string): Promise<string> {
    return this.inner.readlink(path);
  }

  async readdir(path: string): Promise<string[]> {
    const names = this.index().get(normalizeAbsolute(path));
    // Not an indexed folder (missing, a file, a path through a link, or an empty folder): the file system answers.
    return names ? [...names].sort() : this.inner.readdir(path);
  }

  async writeFile(path: string, content: string | Uint8Array): Promise<void> {
    await this.inner.writeFile(path, content);
    this.added(path);
  }
  async mkdir(path: string, options?: { recursive?: boolean }): Promise<void> {
    await this.inner.mkdir(path, options);
    this.added(path);
  }
  async symlink(target: string, linkPath: string): Promise<void> {
    await this.inner.symlink(target, linkPath);
    this.added(linkPath);
  }
  async rm(path: string, options?: { recursive?: boolean; force?: boolean }): Promise<void> {
    await this.inner.rm(path, options);
    this.removed(path);
  }

  /** Every path of the file system (normalised, absolute), as it lists them. */
  getAllPaths(): string[] {
    return this.inner.getAllPaths();
  }

  private index(): Map<string, Set<string>> {
    if (this.children) return this.children;
    const children = new Map<string, Set<string>>();
    // getAllPaths gives normalised absolute paths (the file system's own keys): normalising 40,000 again cost more than the rest.
    for (const path of this.inner.getAllPaths()) addPath(children, path);
    this.children = children;
    return children;
  }

  private added(path: string): void {
    if (this.children) addPath(this.children, normalizeAbsolute(path));
  }

  private removed(path: string): void {
    if (!this.children) return;
    const absolute = normalizeAbsolute(path);
    this.children.get(parentOf(absolute))?.delete(absolute.slice(absolute.lastIndexOf('/') + 1));
    const inside = `${absolute}/`;
    for (const folder of [...this.children.keys()]) {
      if (folder === absolute || folder.startsWith(inside)) this.children.delete(folder);
    }
  }
}

/** Records `absolute` and each folder above it as children of their parents. */
function addPath(children: Map<string, Set<string>>, absolute: string): void {
  let path = absolute;
  while (path !== '/') {
    const parent = parentOf(path);
    const name = path.slice(path.lastIndexOf('/') + 1);
    let names = children.get(parent);
    if (!names) children.set(parent, (names = new Set()));
    if (names.has(name)) return; // its ancestors are recorded already
    names.add(name);
    path = parent;
  }
}
