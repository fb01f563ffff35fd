// The page's sandbox as snapshot trees: which tree it holds now, kept up to date from the Workspace's changed paths,
// and trees put into it by writing only what differs. One per page (the sandbox outlives the sessions shown in it):
// - capture() takes the changed paths at once (later changes go to the next capture) and asks the runtime for just
//   those, hashed where the files are; the tree is rebuilt along those paths only. Nothing changed: no runtime call.
//   When the changed paths cannot be trusted (a hand-over, a runtime restart, too many), it compares everything;
// - captures resolve in the order they were taken, each on top of the one before;
// - objects a capture made stay here until a commit stored them, so a commit that failed is retried by the next;
// - restore() diffs the tree the sandbox holds with the target and writes only the difference; folders snapshots
//   leave out (node_modules) are never touched.
import type { ObjectId } from '../../runtime/object-id';
import { applyToRuntime, scanRuntime } from '../../runtime/workspace/fallbacks';
import type { Runtime, ScannedEntry, WorkspaceChanges } from '../../runtime/types';
import type { Workspace } from '../../runtime/workspace/workspace';
import {
  buildTrees,
  diffTrees,
  snapshotOfFiles,
  SNAPSHOT_EXCLUDE,
  updateTree,
  type FileMap,
  type FlatEntry,
  type NewObjects,
  type ObjectStore,
  type PathContent,
  type Tree,
  type TreeDiff,
} from '../../store';

/** The workspace as a tree at the moment a capture was taken, and the objects of it the store may lack. */
export type Capture = { root: ObjectId; objects: NewObjects };

const excluded = (path: string) => path.split('/').some((name) => SNAPSHOT_EXCLUDE.includes(name));

/** The trees of the page's sandbox. */
export class WorkspaceSnapshots {
  /** The root after the last capture taken (once it resolves); undefined when nothing is known yet. */
  private head: Promise<ObjectId | undefined> = Promise.resolve(undefined);
  /** Whether the capture chain ends in a known tree, so a capture can follow only the changed paths. */
  private headKnown = false;
  /** The tree of the last capture, restore or import that finished. */
  private settledRoot: ObjectId | undefined;
  /** Whole-workspace replacements running (an import, a restore); captures asked meanwhile wait for them. */
  private replacements = 0;
  private replaced: { promise: Promise<void>; resolve(): void } | null = null;
  private readonly unstored: NewObjects = { blobs: new Map(), trees: new Map() };
  /**
   * Blob ids this tracker has seen in the workspace (stored, or kept in `unstored`): a whole comparison leaves their
   * bytes where they are and reads only the others.
   */
  private seenBlobs = new Set<ObjectId>();

  constructor(
    readonly workspace: Workspace,
    private readonly objects: Pick<ObjectStore, 'tree' | 'blobs'>,
  ) {
    workspace.ignoreChangesIn(SNAPSHOT_EXCLUDE);
  }

  /**
   * The workspace as it is now, as a tree. The changed paths are taken and read at once (before any later command
   * runs); hashing, building and anything else happens after. `runtime`: the one to read, when called inside the
   * workspace's exclusive job.
   */
  capture(runtime?: Runtime): Promise<Capture> {
    // What a replacement writes is not a change to follow: its result is known when it ends.
    if (this.replaced) return this.replaced.promise.then(() => this.capture(runtime));
    return this.captureNow(runtime);
  }

  /**
   * Runs `job`, which replaces the workspace as a whole (an import, a restore, with their own captures); captures
   * asked for meanwhile are taken once it is done.
   */
  async replacement<T>(job: () => Promise<T>): Promise<T> {
    if (this.replacements++ === 0) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      this.replaced = { promise, resolve };
    }
    try {
      return await job();
    } finally {
      if (--this.replacements === 0) {
        const done = this.replaced;
        this.replaced = null;
        done?.resolve();
      }
    }
  }

  private captureNow(runtime?: Runtime): Promise<Capture> {
    const taken = this.workspace.takeChanges();
    const previous = this.head;
    const whole = taken.all || !this.headKnown;
    this.headKnown = true;
    const roots = whole ? [''] : outermost(taken.paths.filter((path) => !excluded(path)));
    const options = { excludeNames: SNAPSHOT_EXCLUDE, withData: true, knownIds: whole ? [...this.seenBlobs] : undefined };
    // Asked for now, so the runtime reads these files before anything queued after this capture can change them.
    const scan = roots.length === 0 ? undefined : runtime ? scanRuntime(runtime, roots, options) : this.workspace.scan(roots, options);
    scan?.catch(() => undefined); // handled below, once the capture before this one is done
    const result = (async (): Promise<Capture> => {
      const base = await previous;
      let root: ObjectId;
      if (whole || base === undefined) root = await this.captureWhole(await (scan ?? Promise.resolve([])));
      else if (scan) root = await this.captureChanged(base, roots, await scan);
      else root = base;
      return { root, objects: this.unstoredBelow(root) };
    })();
    result.catch(() => {
      this.workspace.restoreChanges(taken);
      this.forget();
    });
    this.head = result.then(
      (capture) => (this.settledRoot = capture.root),
      () => previous,
    );
    return result;
  }

  /** The tree the workspace held at the end of the last capture, restore or import (undefined before any). */
  get lastRoot(): ObjectId | undefined {
    return this.settledRoot;
  }

  /** `capture`'s objects are stored now; they need not be kept here any longer. */
  stored(capture: Capture): void {
    for (const id of capture.objects.blobs.keys()) this.unstored.blobs.delete(id);
    for (const id of capture.objects.trees.keys()) this.unstored.trees.delete(id);
  }

  /**
   * Nothing known here can be relied on any more (a commit found objects missing from the store): the next capture
   * compares the whole workspace and reads every file.
   */
  forget(): void {
    this.headKnown = false;
    this.seenBlobs = new Set();
  }

  /**
   * The workspace now holds exactly `files` (an import just replaced it): their tree is taken as what it holds, and
   * the import's own change reports are dropped. Returns that tree with its objects.
   */
  async assume(runtime: Runtime, files: FileMap): Promise<Capture> {
    return this.replacing(async () => {
      const kept = new Map([...files].filter(([path]) => !excluded(path)));
      const snapshot = await snapshotOfFiles(kept);
      this.keep(snapshot.objects);
      for (const id of snapshot.objects.blobs.keys()) this.seenBlobs.add(id);
      await this.settle(runtime);
      return { root: snapshot.root, objects: this.unstoredBelow(snapshot.root) };
    });
  }

  /**
   * Makes the workspace hold tree `target`, writing only what differs from what it holds now; returns what would put
   * it back (for an undo; empty with `undo: false`, which spares reading the bytes being replaced). Run inside the
   * workspace's exclusive job, with its runtime.
   */
  restore(runtime: Runtime, target: ObjectId, { undo = true }: { undo?: boolean } = {}): Promise<WorkspaceChanges> {
    return this.replacement(() => this.restoreNow(runtime, target, undo));
  }

  private async restoreNow(runtime: Runtime, target: ObjectId, wantUndo: boolean): Promise<WorkspaceChanges> {
    const live = this.captureNow(runtime);
    return (
      await this.replacing(async () => {
        const diff = await diffTrees(this, (await live).root, target);
        const old = wantUndo ? [...diff.removeFiles.map((f) => f.id), ...diff.writeFiles.flatMap((f) => (f.was ? [f.was.id] : []))] : [];
        const bytes = await this.blobs([...diff.writeFiles.map((f) => f.id), ...old]);
        for (const file of diff.writeFiles) this.seenBlobs.add(file.id);
        const changes: WorkspaceChanges = {
          removeFiles: diff.removeFiles.map((f) => f.path),
          removeFolders: diff.removeFolders,
          makeFolders: diff.makeFolders,
          writeFiles: diff.writeFiles.map((f) => ({ path: f.path, data: bytes.get(f.id)! })),
        };
        try {
          await applyToRuntime(runtime, changes);
        } finally {
          this.workspace.noteChanged(changedPaths(changes));
        }
        await this.settle(runtime);
        const undo = wantUndo ? undoOf(diff, bytes) : { removeFiles: [], removeFolders: [], makeFolders: [], writeFiles: [] };
        return { root: target, objects: this.unstoredBelow(target), undo };
      })
    ).undo;
  }

  /** Applies `changes` (an undo) with `runtime`; the next capture reads the paths it changed. */
  async apply(runtime: Runtime, changes: WorkspaceChanges): Promise<void> {
    try {
      await applyToRuntime(runtime, changes);
    } finally {
      this.workspace.noteChanged(changedPaths(changes));
    }
  }

  /**
   * Runs a whole-workspace replacement whose result is the tree the workspace then holds; captures taken meanwhile
   * wait for it. A failure leaves the tree unknown (the next capture compares everything).
   */
  private replacing<T extends Capture>(job: () => Promise<T>): Promise<T> {
    const running = this.replacement(job);
    this.headKnown = true;
    this.head = running.then(
      (result) => (this.settledRoot = result.root),
      () => {
        this.forget();
        return undefined;
      },
    );
    return running;
  }

  /** Keeps objects that are not stored (a snapshot that could not be converted) for restores and later commits. */
  hold(objects: NewObjects): void {
    this.keep(objects);
  }

  /** TreeSource: trees made here and not stored yet, else the store's. */
  tree(id: ObjectId): Promise<Tree> {
    const tree = this.unstored.trees.get(id);
    return tree ? Promise.resolve(tree) : this.objects.tree(id);
  }

  /** The bytes of blobs `ids`: kept here, else the store's. */
  async blobs(ids: ObjectId[]): Promise<Map<ObjectId, Uint8Array>> {
    const out = new Map<ObjectId, Uint8Array>();
    const fromStore: ObjectId[] = [];
    for (const id of ids) {
      const data = this.unstored.blobs.get(id);
      if (data) out.set(id, data);
      else fromStore.push(id);
    }
    for (const [id, data] of await this.objects.blobs(fromStore)) out.set(id, data);
    return out;
  }

  /** Lets the runtime report the changes just made, then drops them: the tree they led to is known. */
  private async settle(runtime: Runtime): Promise<void> {
    await runtime.flushChanges?.();
    this.workspace.takeChanges();
  }

  private async captureChanged(base: ObjectId, roots: string[], scanned: ScannedEntry[]): Promise<ObjectId> {
    const changed = new Map<string, PathContent>();
    let at = 0;
    for (const root of roots) {
      const first = scanned[at];
      if (!first || first.path !== root) continue; // left out (an excluded name)
      at++;
      if (first.kind === 'missing') changed.set(root, { kind: 'missing' });
      else if (first.kind === 'file') {
        changed.set(root, { path: root, kind: 'file', id: first.id, size: first.size });
        this.seen(first);
      } else {
        const below: FlatEntry[] = [];
        while (at < scanned.length && scanned[at].path.startsWith(`${root}/`)) {
          const entry = scanned[at++];
          const path = entry.path.slice(root.length + 1);
          if (entry.kind === 'dir') below.push({ path, kind: 'dir' });
          else if (entry.kind === 'file') {
            below.push({ path, kind: 'file', id: entry.id, size: entry.size });
            this.seen(entry);
          }
        }
        changed.set(root, { kind: 'dir', below });
      }
    }
    const built = await updateTree(this, base, changed);
    this.keep({ blobs: new Map(), trees: built.trees });
    return built.root;
  }

  /**
   * The whole workspace compared from scratch: ids come from the runtime, with the bytes of every file whose blob
   * this tracker has not seen (read at the moment the capture was taken).
   */
  private async captureWhole(scanned: ScannedEntry[]): Promise<ObjectId> {
    const listing: FlatEntry[] = [];
    for (const entry of scanned) {
      if (entry.path === '' || entry.kind === 'missing') continue;
      if (entry.kind === 'dir') listing.push({ path: entry.path, kind: 'dir' });
      else {
        listing.push({ path: entry.path, kind: 'file', id: entry.id, size: entry.size });
        this.seen(entry);
      }
    }
    const built = await buildTrees(listing);
    this.keep({ blobs: new Map(), trees: built.trees });
    return built.root;
  }

  /** A scanned file: its id is seen, and its bytes (when read) kept until stored. */
  private seen(file: Extract<ScannedEntry, { kind: 'file' }>): void {
    this.seenBlobs.add(file.id);
    if (file.data) this.unstored.blobs.set(file.id, file.data);
  }

  private keep(objects: NewObjects): void {
    for (const [id, data] of objects.blobs) this.unstored.blobs.set(id, data);
    for (const [id, tree] of objects.trees) this.unstored.trees.set(id, tree);
  }

  /** The objects kept here that tree `root` reaches (a tree not kept here is stored, with all it reaches). */
  private unstoredBelow(root: ObjectId): NewObjects {
    const out: NewObjects = { blobs: new Map(), trees: new Map() };
    const stack = [root];
    while (stack.length > 0) {
      const id = stack.pop()!;
      const tree = this.unstored.trees.get(id);
      if (!tree || out.trees.has(id)) continue;
      out.trees.set(id, tree);
      for (const entry of tree.entries) {
        if (entry.kind === 'dir') stack.push(entry.id);
        else {
          const data = this.unstored.blobs.get(entry.id);
          if (data) out.blobs.set(entry.id, data);
        }
      }
    }
    return out;
  }
}

/** The paths not inside another path of the list, sorted. */
function outermost(paths: string[]): string[] {
  const all = new Set(paths);
  const inside = (path: string) => {
    for (let cut = path.lastIndexOf('/'); cut > 0; cut = path.lastIndexOf('/', cut - 1)) if (all.has(path.slice(0, cut))) return true;
    return false;
  };
  return [...all].filter((path) => !inside(path)).sort();
}

function changedPaths(changes: WorkspaceChanges): string[] {
  return [...changes.removeFiles, ...changes.removeFolders, ...changes.makeFolders, ...changes.writeFiles.map((f) => f.path)];
}

/** What puts back the workspace a restore of `diff` changed (its old files' bytes in `bytes`). */
function undoOf(diff: TreeDiff, bytes: Map<ObjectId, Uint8Array>): WorkspaceChanges {
  return {
    removeFiles: diff.writeFiles.filter((f) => !f.was).map((f) => f.path),
    removeFolders: [...diff.makeFolders].reverse(),
    makeFolders: [...diff.removeFolders].reverse(),
    writeFiles: [
      ...diff.removeFiles.map((f) => ({ path: f.path, data: bytes.get(f.id)! })),
      ...diff.writeFiles.flatMap((f) => (f.was ? [{ path: f.path, data: bytes.get(f.was.id)! }] : [])),
    ],
  };
}
