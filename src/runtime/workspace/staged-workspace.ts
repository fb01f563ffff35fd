// The files of a workspace replacement collected into a fresh in-memory file system while they are still arriving
// (a repo zip being inflated), so the embedded runtime's commit is a swap rather than tens of thousands of writes
// after the last file is known. Checks match importFiles: nothing outside the workdir, no file/folder clash.

import { InMemoryFs } from 'just-bash';
import { safeEntryPath, type WorkspaceFile } from '../zip/workspace-zip';

/** A fresh file system holding `workdir` and the files added so far; the first bad file is kept for `finish`. */
export class StagedWorkspace {
  private memory: InMemoryFs | undefined = new InMemoryFs();
  private readonly files = new Set<string>();
  private readonly folders = new Set<string>();
  private readonly added: string[] = [];
  private failure: Error | undefined;

  constructor(private readonly workdir: string) {
    this.memory!.mkdirSync(workdir, { recursive: true });
  }

  /** Writes `files` into the staged tree; after a bad one, later files are ignored (finish reports it). */
  add(files: readonly WorkspaceFile[]): void {
    const memory = this.memory;
    if (!memory || this.failure) return;
    try {
      for (const file of files) {
        const path = this.checkedPath(file);
        memory.writeFileSync(`${this.workdir}/${path}`, file.data);
        this.added.push(path);
      }
    } catch (error) {
      this.failure = error instanceof Error ? error : new Error(String(error));
      this.drop();
    }
  }

  /** The staged file system and the workdir-relative paths written; throws the first problem found. */
  finish(): { memory: InMemoryFs; paths: string[] } {
    if (this.failure) throw this.failure;
    if (!this.memory) throw new Error('This import was already committed or discarded; start the import again.');
    const result = { memory: this.memory, paths: this.added };
    this.memory = undefined;
    return result;
  }

  /** Lets go of everything staged. */
  drop(): void {
    this.memory = undefined;
    this.files.clear();
    this.folders.clear();
  }

  private checkedPath(file: WorkspaceFile): string {
    if (!(file.data instanceof Uint8Array)) throw new Error(`The file "${file.path}" has no bytes; nothing was imported.`);
    const path = safeEntryPath(file.path);
    if (path === '') throw new Error(`The file path "${file.path}" names the workspace itself; nothing was imported.`);
    if (this.folders.has(path)) throw clash(path);
    let cut = path.lastIndexOf('/');
    while (cut > 0) {
      const parent = path.slice(0, cut);
      if (this.files.has(parent)) throw clash(parent);
      if (this.folders.has(parent)) break; // its own parents were checked when it was added
      this.folders.add(parent);
      cut = parent.lastIndexOf('/');
    }
    this.files.add(path);
    return path;
  }
}

const clash = (path: string) => new Error(`"${path}" is both a file and a folder in this workspace; nothing was imported.`);
