// The page's copy of the embedded runtime's workspace, kept so that a worker ended the hard way (a command that
// would not stop) can be refilled with the files as they were before that command. It costs what changed: the copy
// starts from what the page itself handed the worker (initial files, an import, a restore), and before each command
// only the paths changed since the last command are read back (one round trip, read before the command runs).

import { unpackWorkspaceZip, type WorkspaceEntry } from '../zip/workspace-zip';
import type { WorkspaceChanges, WorkspaceFile } from '../types';
import type { CopiedEntry } from '../workspace/scan';

/** Workdir-relative path -> bytes, or null for a folder. */
type Entries = Map<string, Uint8Array | null>;


/** The workspace as the page last knew it, and the paths changed since. */
export class RollbackCopy {
  private entries: Entries = new Map();
  private readonly changed = new Set<string>();

  /** The workspace is now exactly `files` (and `folders`), as handed to the worker. */
  replace(files: Iterable<WorkspaceFile>, folders: Iterable<string> = []): void {
    const entries: Entries = new Map();
    for (const folder of folders) entries.set(folder, null);
    for (const file of files) {
      addParents(entries, file.path);
      entries.set(file.path, file.data);
    }
    this.entries = entries;
    this.changed.clear();
  }

  /** The workspace is now the zip's contents. */
  replaceWithZip(zip: Uint8Array): void {
    const entries = unpackWorkspaceZip(zip);
    this.replace(
      entries.filter((e): e is Extract<WorkspaceEntry, { kind: 'file' }> => e.kind === 'file'),
      entries.filter((e) => e.kind === 'dir').map((e) => e.path),
    );
  }

  /** `changes` were made by the page itself: the copy takes them as given. */
  applied(changes: WorkspaceChanges): void {
    for (const path of changes.removeFiles) this.entries.delete(path);
    if (changes.removeFolders.length > 0) {
      // A folder goes only when nothing is left in it, as the runtime does it: a folder holds something when an
      // entry that stays (anything but the folders to remove) lies below it.
      const removing = new Set(changes.removeFolders);
      const holding = new Set<string>();
      for (const path of this.entries.keys()) {
        if (removing.has(path)) continue;
        for (let cut = path.lastIndexOf('/'); cut > 0; cut = path.lastIndexOf('/', cut - 1)) holding.add(path.slice(0, cut));
      }
      for (const path of removing) if (!holding.has(path)) this.entries.delete(path);
    }
    for (const path of changes.makeFolders) {
      addParents(this.entries, path);
      this.entries.set(path, null);
    }
    for (const file of changes.writeFiles) {
      addParents(this.entries, file.path);
      this.entries.set(file.path, file.data);
    }
    for (const path of [...changes.removeFiles, ...changes.removeFolders, ...changes.makeFolders, ...changes.writeFiles.map((f) => f.path)]) {
      this.changed.delete(path);
    }
  }

  /** Paths changed in the worker (a write, a command); '' means anything may have. */
  markChanged(paths: Iterable<string>): void {
    for (const path of paths) this.changed.add(path);
  }

  /** The changed paths to read back, forgotten here (the caller folds the copies in with `update`). */
  takeChanged(): string[] {
    const paths = new Set(this.changed);
    this.changed.clear();
    if (paths.has('')) return [''];
    // A path below another changed path is read with it: copying a folder and again its files costs a listing each.
    return [...paths].filter((path) => !hasAncestorIn(path, paths));
  }

  /** Folds in fresh copies of `roots`: what was below each root is replaced by what was read there. */
  update(roots: string[], copies: CopiedEntry[]): void {
    if (roots.includes('')) this.entries.clear();
    else if (roots.length > 0) {
      // One pass over the copy, each path checked against the roots by its own ancestors: a command that wrote
      // 20,000 files (git's objects, an npm install) must not cost roots × entries.
      const rooted = new Set(roots);
      for (const path of [...this.entries.keys()]) if (isBelowAny(path, rooted)) this.entries.delete(path);
    }
    for (const entry of copies) {
      if (entry.kind === 'missing') continue;
      addParents(this.entries, entry.path);
      if (entry.path !== '') this.entries.set(entry.path, entry.kind === 'file' ? entry.data : null);
    }
  }

  /** What refills an empty workspace with the copy. */
  refill(): WorkspaceChanges {
    const makeFolders: string[] = [];
    const writeFiles: WorkspaceFile[] = [];
    for (const [path, data] of this.entries) {
      if (data === null) makeFolders.push(path);
      else writeFiles.push({ path, data });
    }
    return { removeFiles: [], removeFolders: [], makeFolders, writeFiles };
  }
}

/** Whether `path` is one of `roots` or lies below one. */
function isBelowAny(path: string, roots: ReadonlySet<string>): boolean {
  return roots.has(path) || hasAncestorIn(path, roots);
}

/** Whether a folder above `path` is one of `roots`. */
function hasAncestorIn(path: string, roots: ReadonlySet<string>): boolean {
  for (let cut = path.lastIndexOf('/'); cut > 0; cut = path.lastIndexOf('/', cut - 1)) if (roots.has(path.slice(0, cut))) return true;
  return false;
}

function addParents(entries: Entries, path: string): void {
  for (let cut = path.indexOf('/'); cut > 0; cut = path.indexOf('/', cut + 1)) {
    const parent = path.slice(0, cut);
    if (!entries.has(parent)) entries.set(parent, null);
  }
}
