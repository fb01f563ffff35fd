// What moves in and out of the open session: a repo imported as its workspace (and baseline), a shared session file,
// a session export after its secret review, the workspace as a zip, and the Changes tab's diff, patch and revert.
import { gitBlobId, type ObjectId } from '../../runtime/object-id';
import { buildTrees, type FileChange, type FileMap, type SessionRecord, type ZipImportProgress } from '../../store';
import type { OpenSessionAccess } from '../session/open-session-access';
import { sessionBaseline } from '../workspace/baseline';
import { storedRoot } from '../session/persistence';
import { timed } from '../user-timing';
import { buildExport, importSharedSession, prepareSessionExport, type ExportDownload, type ExportFormat, type PreparedExport } from './sharing';
import {
  changesPatch,
  exportWorkspaceZip,
  importRepo,
  revertFile,
  treeChanges,
  patchName,
  workspaceZipName,
  type HistoryOption,
  type RepoImport,
  type RepoSource,
} from '../workspace/workspace-io';

/** Imports and exports of the open session; components call it as `library.transfer`. */
export class WorkspaceTransfer {
  private readonly session: OpenSessionAccess;

  constructor(session: OpenSessionAccess) {
    this.session = session;
  }

  /**
   * Imports a repo into the open session's workspace; it becomes the session's baseline. Throws (for the import
   * UI to show) when the repo is refused or the import is cancelled; the workspace is untouched then.
   */
  importRepo(source: RepoSource, options: { onProgress?: (p: ZipImportProgress) => void; signal?: AbortSignal } = {}): Promise<RepoImport> {
    return this.session.queue(async () => {
      const workspace = this.session.writableWorkspace();
      const id = this.session.current()!.id;
      const { store, snapshots } = this.session;
      // Snapshots wait for the import: the sandbox then holds exactly the imported files, whose tree is the baseline.
      const { result, baseline } = await snapshots.replacement(async () => {
        const result = await importRepo(workspace, source, options);
        return { result, baseline: await timed('snapshot-capture', () => workspace.exclusive((runtime) => snapshots.assume(runtime, result.contents))) };
      });
      try {
        await timed('snapshot-commit', () => store.commitSnapshot(id, 'baseline', baseline), (bytes) => ({ ref: 'baseline', bytes }));
        snapshots.stored(baseline);
        // A zip or folder replaces a host import: the session no longer comes from that repository; any import but
        // an opened folder's (which links itself after) unlinks the folder the workspace came from.
        await store.updateSession(id, { baselineName: source.name, origin: source.kind === 'host' ? source.origin : undefined });
        if (source.kind !== 'local-folder') await store.saveFolderLink(id, undefined);
        await this.session.workspaceReplaced();
      } catch (error) {
        this.session.storageProblem(error);
      }
      const origin = source.kind === 'host' ? source.origin : undefined;
      await workspace.setBaseline(sessionBaseline(this.session.store, { id, title: '', baselineId: id, baselineName: source.name, origin }));
      await this.session.refresh();
      return result;
    });
  }

  /**
   * Makes `files` (every file of the session's folder as last synced, by blob id) the open session's baseline, so the
   * Changes tab shows only what is not in the folder yet; `contents` are the bytes of those the store may lack.
   */
  rebaseline(files: { path: string; blobId: ObjectId; size: number }[], contents: Uint8Array[]): Promise<void> {
    return this.session.queue(async () => {
      const id = this.session.current()?.id;
      if (!id || id.startsWith('unsaved-')) return;
      const { root, trees } = await buildTrees(files.map(({ path, blobId, size }) => ({ path, kind: 'file' as const, id: blobId, size })));
      const blobs = new Map(await Promise.all(contents.map(async (data) => [await gitBlobId(data), data] as const)));
      try {
        await this.session.store.commitSnapshot(id, 'baseline', { root, objects: { blobs, trees } });
      } catch (error) {
        this.session.storageProblem(error);
      }
      await this.session.refresh();
    });
  }

  /** Validates a session file and opens it as a new session; throws SessionFileError (nothing stored) if invalid. */
  async importSessionFile(data: Uint8Array | Blob): Promise<SessionRecord> {
    const record = await importSharedSession(this.session.store, data);
    await this.session.refresh();
    await this.session.open(record.id);
    return record;
  }

  /** The open session gathered for export (everything saved first) with its secret scan. */
  async prepareExport(knownSecrets: string[]): Promise<PreparedExport> {
    const id = this.session.current()?.id;
    if (!id) throw new Error('There is no session to export yet.');
    await this.session.flush();
    return prepareSessionExport(this.session.store, id, knownSecrets);
  }

  /** The download for a reviewed export: `redact` plus the person's own keys replaced by [REDACTED]. */
  buildExport(prepared: PreparedExport, redact: PreparedExport['findings'], format: ExportFormat): Promise<ExportDownload> {
    return buildExport(prepared, redact, format);
  }

  /** The open session's workspace as a zip download (binaries included, node_modules left out, .git if asked). */
  async exportWorkspace(options: HistoryOption = {}): Promise<ExportDownload> {
    const workspace = this.session.workspace();
    return { fileName: workspaceZipName(this.session.current()?.title ?? ''), data: await exportWorkspaceZip(workspace, options), mimeType: 'application/zip' };
  }

  /**
   * What changed in the open session's workspace since its baseline, with the baseline files of those changes for
   * reverts (.git only if asked): the two trees are compared, and only the files that differ are read.
   */
  async changes(options: HistoryOption = {}): Promise<{ changes: FileChange[]; baseline: FileMap }> {
    this.session.workspace(); // the sandbox must be there
    const id = this.session.current()?.id;
    const { snapshots } = this.session;
    const baseline = id && !id.startsWith('unsaved-') ? await this.baselineTree(id) : undefined;
    const live = await snapshots.capture();
    return treeChanges(snapshots, baseline, live.root, options);
  }

  private async baselineTree(id: string): Promise<ObjectId | undefined> {
    const { store, snapshots } = this.session;
    await store.upgradeSnapshots(id).catch(() => undefined); // a zip that stays is read in memory
    return storedRoot(store, snapshots, id, 'baseline');
  }

  /** The changes as a .patch download `git apply` accepts on the original repo; with includeGit, .git's changes too. */
  async patch(changes: FileChange[], options: HistoryOption = {}): Promise<ExportDownload> {
    const included = options.includeGit ? (await this.changes(options)).changes : changes;
    return { fileName: patchName(this.session.current()?.title ?? ''), data: new TextEncoder().encode(changesPatch(included)), mimeType: 'text/x-diff' };
  }

  /** Puts one changed file back as the baseline has it. */
  async revert(change: FileChange, baseline: FileMap): Promise<void> {
    await revertFile(this.session.writableWorkspace(), change, baseline);
  }
}
