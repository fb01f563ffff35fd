// The workspace paths changed since someone last took them: the Workspace's own writes, and whatever its runtime's
// watch reported (commands, the terminal, the editor). A snapshot reads only these. When the set cannot be trusted
// (more changes than are worth listing, a runtime hand-over, a runtime that lost its files), it says "everything",
// and the snapshot compares the whole workspace instead.

/** What changed: a list of workdir-relative paths (a folder stands for everything in it), or everything. */
export type ChangedPaths = { all: true } | { all: false; paths: string[] };

/** Beyond this many paths a full comparison is about as cheap as following each one. */
export const MAX_CHANGED_PATHS = 5000;

/** Collects changed paths until taken; taking starts a fresh set (copy on write), so later changes go to the next. */
export class ChangedPathSet {
  private paths = new Set<string>();
  private all = true; // nothing is known about a workspace until it has been looked at once
  private ignored: ReadonlySet<string> = new Set();

  /** Changes inside folders with these names are not kept (what snapshots leave out, such as node_modules). */
  ignoreNames(names: readonly string[]): void {
    this.ignored = new Set(names);
  }

  /** Notes changed paths ('' is the workdir itself: everything). */
  add(paths: Iterable<string>): void {
    if (this.all) return;
    for (const path of paths) {
      if (path === '') {
        this.everything();
        return;
      }
      if (this.ignored.size > 0 && path.split('/').some((name) => this.ignored.has(name))) continue;
      this.paths.add(path);
    }
    if (this.paths.size > MAX_CHANGED_PATHS) this.everything();
  }

  /** Anything may have changed. */
  everything(): void {
    this.all = true;
    this.paths.clear();
  }

  /** True when nothing changed since the last take. */
  get empty(): boolean {
    return !this.all && this.paths.size === 0;
  }

  /** What changed since the last take, and a fresh start. */
  take(): ChangedPaths {
    const taken: ChangedPaths = this.all ? { all: true } : { all: false, paths: [...this.paths].sort() };
    this.all = false;
    this.paths = new Set();
    return taken;
  }

  /** Puts taken changes back (a snapshot that could not finish); they are taken again next time. */
  restore(taken: ChangedPaths): void {
    if (taken.all) this.everything();
    else this.add(taken.paths);
  }
}
