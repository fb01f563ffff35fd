// Folders of the embedded sandbox outside the workspace that the shell and the Runtime methods may read but never
// change: the person's own skills at /skills/<name>/. They are written straight into memory, below the observed file
// system, so no watcher hears of them; being outside the workdir, no scan, export, snapshot or `git status` sees them.
import type { InMemoryFs } from 'just-bash';
import { isInside, normalizeAbsolute, parentOf, relativeTo } from '../paths';
import type { WorkspaceFile } from '../types';

/** The read-only folders, and the error a write into one of them gets. */
export class ReadOnlyPlaces {
  private readonly roots = new Set<string>();

  /** Throws the read-only error when any of `paths` lies in a read-only folder (or is one). */
  check(paths: string[]): void {
    for (const path of paths) {
      const absolute = normalizeAbsolute(path);
      for (const root of this.roots) {
        if (isInside(root, absolute)) {
          throw new Error(`EROFS: ${absolute} is read-only (${root} holds files placed for the agent to read and run). Copy it into the workspace to change it.`);
        }
      }
    }
  }

  /** Replaces whatever `root` (absolute, outside `workdir`) held with `files` (paths relative to it), read-only from now on. */
  async place(memory: InMemoryFs, workdir: string, root: string, files: WorkspaceFile[]): Promise<void> {
    const folder = normalizeAbsolute(root);
    if (folder === '/' || relativeTo(workdir, folder) !== undefined || isInside(folder, workdir)) {
      throw new Error(`Cannot place read-only files at ${root}: choose a folder outside the workspace ${workdir}.`);
    }
    await memory.rm(folder, { recursive: true, force: true });
    memory.mkdirSync(folder, { recursive: true });
    for (const file of files) {
      const absolute = normalizeAbsolute(`${folder}/${file.path}`);
      if (!isInside(folder, absolute) || absolute === folder) throw new Error(`Cannot place ${file.path}: it would land outside ${root}.`);
      memory.mkdirSync(parentOf(absolute), { recursive: true });
      memory.writeFileSync(absolute, file.data);
    }
    this.roots.add(folder);
  }
}
