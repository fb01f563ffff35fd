// A local folder the person opened (Chromium's File System Access API), as the sidebar runs it: the folder read
// under the zip import's rules and imported like a zip (the workspace replaced only when the whole read succeeded),
// its handle and sync record kept with the session, one click to allow editing again after a reload, "Refresh from
// disk" bringing outside edits in through the Workspace (and telling the next run which files changed), and "Write
// back to folder" reviewed file by file in WriteBackReview.
import { errorText } from '../../error-text';
import type { SessionLibrary } from '../../library/library.svelte';
import type { Toasts } from '../../toasts.svelte';
import type { FolderHandle, FolderPermission, FolderSkip, FolderSync, OutsideEdit, WriteBackResult } from '../../../remote';
import { isCancel } from '../../workspace/import-outcome';
import { isPickerDismissed } from './directory-picker';
import type { FolderLink } from './folder-link';
import type { OutsideEditNotices } from './outside-edit-notices';
import type { WriteBackReview } from './write-back-review.svelte';

// The core loads with the first folder opened or linked session shown, not with the page.
const io = () => import('./folder-io');

export type FolderPhase = 'idle' | 'reading' | 'importing' | 'planning' | 'refreshing';

/** What of the library a folder works through. */
export type FolderLibrary = Pick<SessionLibrary, 'store' | 'snapshots' | 'transfer' | 'readOnly' | 'current'>;

export type LocalFolderDeps = {
  /** Asks for a folder (window.showDirectoryPicker in read-write mode); null where the browser lacks it. */
  pick: (() => Promise<FolderHandle>) | null;
  notices: () => OutsideEditNotices;
  toasts?: () => Toasts;
};

export class LocalFolder {
  phase = $state<FolderPhase>('idle');
  /** The open session's folder, or null when it has none. */
  folderName = $state<string | null>(null);
  /** Whether Conch may edit it now; 'needs-gesture' after a reload, until the person clicks Allow. */
  permission = $state<FolderPermission | null>(null);
  /** The last failure, written for the person. */
  error = $state('');
  /** The person asked to open a folder in a browser that cannot: the sidebar explains and offers the upload. */
  unsupportedAsked = $state(false);
  /** The write-back being reviewed, or null. */
  review = $state.raw<WriteBackReview | null>(null);
  private link: (FolderLink & { sessionId: string }) | null = null;
  /** Moves on whenever the link is replaced, so a slower read of the old one is dropped. */
  private generation = 0;

  constructor(private readonly deps: LocalFolderDeps) {}

  get supported(): boolean {
    return this.deps.pick !== null;
  }

  get busy(): boolean {
    return this.phase !== 'idle';
  }

  /**
   * Shows session `sessionId`'s folder, read from storage when the open session changed or its workspace now has
   * another name (`baselineName`: another import replaced it); permission is only checked, never asked.
   */
  async showSession(library: FolderLibrary, sessionId: string | null, baselineName?: string): Promise<void> {
    const same = this.link?.sessionId === sessionId && (baselineName === undefined || baselineName === this.link.sync.folderName);
    // An opening folder sets its own link; a link read while it ran would be the one it replaces.
    if ((same && sessionId !== null) || this.busy) return;
    const generation = ++this.generation;
    this.link = null;
    this.review = null;
    Object.assign(this, { folderName: null, permission: null, error: '' });
    if (!sessionId) return;
    const { ensurePermission, loadFolderLink } = await io();
    const link = await loadFolderLink(library.store, sessionId).catch(() => null);
    if (!link || library.current?.id !== sessionId || generation !== this.generation) return;
    this.link = { ...link, sessionId };
    this.folderName = link.sync.folderName;
    const permission = await ensurePermission(link.handle).catch(() => 'needs-gesture' as const);
    if (generation === this.generation) this.permission = permission;
  }

  /** "Open folder": asks for a folder, reads it and imports it as the open session's workspace. Call from a click. */
  async open(library: FolderLibrary): Promise<void> {
    if (!this.deps.pick) {
      this.unsupportedAsked = true;
      return;
    }
    if (this.busy) return;
    let handle: FolderHandle;
    try {
      handle = await this.deps.pick(); // first, while the click's user activation lasts
    } catch (error) {
      if (!isPickerDismissed(error)) this.fail(`The folder could not be opened: ${errorText(error)}`);
      return;
    }
    const sessionId = library.current?.id;
    if (!sessionId) return;
    this.error = '';
    this.phase = 'reading';
    this.generation++;
    try {
      const { readFolder, saveFolderLink } = await io();
      const read = await readFolder(handle);
      this.phase = 'importing';
      const entries = Array.from(read.files, ([path, data]) => ({ path, data }));
      const imported = await library.transfer.importRepo({ kind: 'local-folder', name: handle.name, entries });
      const link = { handle, sync: read.sync };
      this.link = { ...link, sessionId };
      this.review = null;
      Object.assign(this, { folderName: handle.name, permission: 'granted' });
      const files = `${imported.files.toLocaleString('en')} ${imported.files === 1 ? 'file' : 'files'}`;
      const text = [`Opened ${handle.name}: ${files}.`, ...leftOutLines(read.skipped)].join('\n');
      this.deps.toasts?.().show({ kind: 'success', text, key: 'repo-import', testId: 'import-result' });
      await saveFolderLink(library.store, sessionId, link).catch((error: unknown) =>
        this.fail(`${handle.name} is open, but this browser could not keep the link to it (${errorText(error)}): after a reload, open the folder again.`),
      );
    } catch (error) {
      if (!isCancel(error)) this.fail(`${handle.name} was not opened: ${errorText(error)} The workspace was not changed.`);
    } finally {
      this.phase = 'idle';
    }
  }

  /** "Allow editing": asks the browser again after a reload. Call from the click, before anything else is awaited. */
  async allow(): Promise<boolean> {
    if (!this.link) return false;
    const { ensurePermission, permissionMessage } = await io();
    this.permission = await ensurePermission(this.link.handle, { request: true });
    this.error = permissionMessage(this.permission, this.link.sync.folderName) ?? '';
    return this.permission === 'granted';
  }

  /** "Write back to folder": lists the workspace's changes since the last sync, each checked against the disk. */
  async prepareWriteBack(library: FolderLibrary): Promise<void> {
    const link = await this.usableLink(library);
    if (!link) return;
    this.phase = 'planning';
    this.error = '';
    try {
      const { folderChanges, planWriteBack, WriteBackReview } = await io();
      const changes = await folderChanges(library.snapshots, link.sync);
      const readBase = async (id: Parameters<typeof library.snapshots.blobs>[0][number]) => {
        try {
          return (await library.snapshots.blobs([id])).get(id) ?? null;
        } catch {
          return null; // collected from storage: the merge then has no base
        }
      };
      const plan = await planWriteBack({ root: link.handle, sync: link.sync, changes, readBase });
      this.review = new WriteBackReview(plan, (result, contents) => this.written(library, link.sessionId, result, contents));
    } catch (error) {
      this.fail(`Nothing was written: ${errorText(error)}`);
    } finally {
      this.phase = 'idle';
    }
  }

  /** "Refresh from disk": brings the folder's outside edits into the workspace; the next run is told which files. */
  async refresh(library: FolderLibrary): Promise<void> {
    const link = await this.usableLink(library);
    const workspace = library.current?.workspace;
    if (!link || !workspace) return;
    this.phase = 'refreshing';
    this.error = '';
    try {
      const { folderChanges, outsideEditsSummary, refreshFromDisk } = await io();
      this.review = null; // planned against the disk as it was
      const refreshed = await refreshFromDisk(link.handle, link.sync);
      // A file Conch changed too is left for the write-back to ask about: its old stamp stays, so it shows as a conflict.
      const ours = new Set((await folderChanges(library.snapshots, link.sync)).map((change) => change.path));
      const brought = refreshed.edits.filter((edit) => !ours.has(edit.path));
      const held = refreshed.edits.filter((edit) => ours.has(edit.path)).map((edit) => edit.path);
      for (const edit of brought) await applyEdit(workspace, edit);
      const old = new Map(link.sync.files.map((stamp) => [stamp.path, stamp]));
      const files = refreshed.sync.files.filter((stamp) => !held.includes(stamp.path));
      for (const path of held) if (old.has(path)) files.push(old.get(path)!);
      files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      await this.keepSync(library, link.sessionId, { ...refreshed.sync, files }, brought.flatMap((edit) => (edit.status === 'deleted' ? [] : [edit.data])));
      const summary = outsideEditsSummary(brought);
      if (summary) this.deps.notices().set(link.sessionId, summary);
      const text = brought.length === 0 ? `Nothing changed in ${link.sync.folderName} since the last sync.` : `Brought in ${brought.length} ${brought.length === 1 ? 'file' : 'files'} changed on disk.`;
      const both = held.length ? ` Changed both here and on disk, so left as Conch has them (write back to choose): ${held.join(', ')}.` : '';
      this.deps.toasts?.().show({ kind: 'success', text: text + both, key: 'folder', testId: 'refresh-result' });
    } catch (error) {
      this.fail(`Nothing was brought in: ${errorText(error)}`);
    } finally {
      this.phase = 'idle';
    }
  }

  dismissReview(): void {
    this.review = null;
  }

  private async written(library: FolderLibrary, sessionId: string, result: WriteBackResult, contents: Uint8Array[]): Promise<void> {
    const workspace = library.current?.workspace;
    if (workspace && library.current?.id === sessionId) {
      for (const update of result.workspaceUpdates) {
        if (update.data) await workspace.writeFile(update.path, update.data);
        else await workspace.rm(update.path);
      }
    }
    await this.keepSync(library, sessionId, result.sync, contents);
  }

  // The folder's new sync record, and the session's baseline with it (what the folder holds is not a change).
  private async keepSync(library: FolderLibrary, sessionId: string, sync: FolderSync, contents: Uint8Array[]): Promise<void> {
    if (!this.link || this.link.sessionId !== sessionId) return;
    this.link = { ...this.link, sync };
    const { saveFolderLink } = await io();
    await saveFolderLink(library.store, sessionId, this.link);
    if (library.current?.id === sessionId) await library.transfer.rebaseline(sync.files, contents);
  }

  // The open session's folder when Conch may edit it; otherwise says why (and what to click) and returns null.
  private async usableLink(library: FolderLibrary): Promise<(FolderLink & { sessionId: string }) | null> {
    const link = this.link;
    if (!link || this.busy || library.current?.id !== link.sessionId) return null;
    if (library.readOnly || library.current.running) {
      this.fail('Wait until the agent has finished (or open this session in its own tab) before syncing the folder.');
      return null;
    }
    // Asked first, while the click's user activation lasts.
    if (this.permission !== 'granted' && !(await this.allow())) return null;
    // Another import (a zip, a repository) replaced the workspace since: the folder no longer matches it.
    const { loadFolderLink } = await io();
    if ((await loadFolderLink(library.store, link.sessionId).catch(() => null)) === null) {
      Object.assign(this, { link: null, folderName: null, permission: null, review: null });
      this.fail(`This session's workspace no longer comes from ${link.sync.folderName} (another import replaced it): open the folder again to work on it.`);
      return null;
    }
    return link;
  }

  private fail(message: string): void {
    this.error = message;
  }
}

/** One line per folder or file left out of the import ("node_modules/ left out: ..."). */
export function leftOutLines(skipped: readonly FolderSkip[]): string[] {
  return skipped.map(({ path, reason }) => {
    switch (reason) {
      case 'node_modules':
        return `${path}/ left out: installed packages (npm install brings them back).`;
      case '.git':
        return `${path}/ left out: the repository's history (git in the folder keeps it).`;
      case 'os-metadata':
        return `${path} left out: a system metadata file.`;
      default:
        return reason satisfies never;
    }
  });
}

async function applyEdit(workspace: NonNullable<FolderLibrary['current']>['workspace'], edit: OutsideEdit): Promise<void> {
  if (edit.status === 'deleted') await workspace.rm(edit.path);
  else await workspace.writeFile(edit.path, edit.data);
}
