// What the workspace changed since the folder's last sync: its files now (the live tree) against the blob ids the
// sync record holds, so only files that differ are read. Installed packages and history stay out, as at the import.
import type { WorkspaceChange, FolderSync } from '../../../remote';
import { HISTORY_FOLDERS, listTree, SNAPSHOT_EXCLUDE, type TreeSource } from '../../../store';
import type { ObjectId } from '../../../runtime/object-id';

type LiveTree = TreeSource & { capture(): Promise<{ root: ObjectId }>; blobs(ids: ObjectId[]): Promise<Map<ObjectId, Uint8Array>> };

const LEFT_OUT = [...SNAPSHOT_EXCLUDE, ...HISTORY_FOLDERS];
const leftOut = (path: string) => path.split('/').some((name) => LEFT_OUT.includes(name));

/** The workspace's added, modified and deleted files since `sync`, sorted by path. */
export async function folderChanges(snapshots: LiveTree, sync: FolderSync): Promise<WorkspaceChange[]> {
  const live = await snapshots.capture();
  const { files } = await listTree(snapshots, live.root);
  const synced = new Map(sync.files.map((file) => [file.path, file.blobId]));
  const present = new Set<string>();
  const changed: { path: string; id: ObjectId; added: boolean }[] = [];
  for (const file of files) {
    if (leftOut(file.path)) continue;
    present.add(file.path);
    const before = synced.get(file.path);
    if (before !== file.id) changed.push({ path: file.path, id: file.id, added: before === undefined });
  }
  const bytes = await snapshots.blobs(changed.map((file) => file.id));
  const changes: WorkspaceChange[] = changed.map(({ path, id, added }) => ({ path, status: added ? 'added' : 'modified', data: bytes.get(id)! }));
  for (const path of synced.keys()) if (!present.has(path)) changes.push({ path, status: 'deleted' });
  return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
