// The workspace as the Files tab shows it: folders load when opened (so node_modules costs nothing until asked for),
// and opened folders re-read when the runtime reports changes in them.
import { SvelteMap, SvelteSet } from 'svelte/reactivity';
import type { EntryType, Runtime } from '../../runtime/types';
import { errorText } from '../../ai/messages';

export type TreeEntry = { name: string; path: string; type: EntryType };

const REFRESH_DELAY_MS = 120;

/** Folders first, then names, case-insensitively. */
function byFolderThenName(a: TreeEntry, b: TreeEntry): number {
  if ((a.type === 'dir') !== (b.type === 'dir')) return a.type === 'dir' ? -1 : 1;
  return a.name.localeCompare(b.name, undefined, { sensitivity: 'base' });
}

/** Lazily loaded tree of one runtime's workspace (paths relative to the workdir, '' is the root). */
export class FileTreeState {
  readonly children = new SvelteMap<string, TreeEntry[]>();
  readonly expanded = new SvelteSet<string>(['']);
  error = $state<string | null>(null);
  private stopWatching: (() => void) | null = null;
  private refreshTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly dirty = new Set<string>();

  constructor(readonly runtime: Runtime) {}

  /** Loads the root and follows changes; returns a function that stops following. */
  start(): () => void {
    void this.load('');
    this.stopWatching = this.runtime.watch((paths) => this.changed(paths));
    return () => this.stop();
  }

  stop(): void {
    this.stopWatching?.();
    this.stopWatching = null;
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
  }

  async load(dir: string): Promise<void> {
    try {
      const entries = await this.runtime.readdir(dir === '' ? this.runtime.workdir : dir);
      this.children.set(
        dir,
        entries.map((e) => ({ name: e.name, type: e.type, path: dir === '' ? e.name : `${dir}/${e.name}` })).sort(byFolderThenName),
      );
      this.error = null;
    } catch (error) {
      if (dir === '') this.error = `Could not list the workspace: ${errorText(error)}`;
      this.children.delete(dir);
      this.expanded.delete(dir);
    }
  }

  async toggle(dir: string): Promise<void> {
    if (this.expanded.has(dir)) {
      this.expanded.delete(dir);
      return;
    }
    this.expanded.add(dir);
    await this.load(dir);
  }

  /** Re-reads the opened folders that contain changed paths, batched. */
  private changed(paths: string[]): void {
    const root = this.runtime.workdir.replace(/\/+$/, '');
    for (const raw of paths) {
      const rel = raw.startsWith(root + '/') ? raw.slice(root.length + 1) : raw.replace(/^\/+/, '');
      const parent = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '';
      this.dirty.add(parent);
    }
    if (this.refreshTimer) return;
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = null;
      const dirs = [...this.dirty];
      this.dirty.clear();
      // A change deep inside an opened folder may add a subfolder to it: refresh every opened ancestor too.
      const toLoad = new Set<string>();
      for (const dir of dirs) {
        let d = dir;
        for (;;) {
          if (this.expanded.has(d)) toLoad.add(d);
          if (d === '') break;
          d = d.includes('/') ? d.slice(0, d.lastIndexOf('/')) : '';
        }
      }
      for (const dir of toLoad) void this.load(dir);
    }, REFRESH_DELAY_MS);
  }
}
