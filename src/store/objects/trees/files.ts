// Between snapshot trees and plain files: a tree from a set of files (an import, a session file, a zip-era
// snapshot), and the files or the workspace zip of a tree (exports, the Changes tab), built on demand.
import { nextMacrotask } from '../../../runtime/macrotask';
import { EMPTY_TREE_ID, gitBlobId, type ObjectId } from '../../../runtime/object-id';
import { writeStoredZip } from '../../../runtime/zip/stored-zip';
import type { NewObjects } from '../object-store';
import { buildTrees, type FlatEntry, type TreeSource } from './build';
import type { Tree } from './codec';
import { listTree } from './diff';
import { walkTrees } from './walk';
import type { FileMap } from '../../file-map';

/** Reads what a tree needs: its folders and its files' bytes. */
export interface ObjectReader extends TreeSource {
  blobs(ids: Iterable<ObjectId>): Promise<Map<ObjectId, Uint8Array>>;
}

/** A snapshot made from files: its root tree and every object it needs. */
export type FilesSnapshot = { root: ObjectId; objects: NewObjects };

const HASH_BATCH = 256;

/** The git blob ids of `files`, hashed a batch at a time (the page gets a turn between batches). */
export async function blobIdsOf(files: Iterable<[string, Uint8Array]>): Promise<Map<string, ObjectId>> {
  const ids = new Map<string, ObjectId>();
  let batch: [string, Uint8Array][] = [];
  const hash = async () => {
    const hashed = await Promise.all(batch.map(([, data]) => gitBlobId(data)));
    batch.forEach(([path], i) => ids.set(path, hashed[i]));
    batch = [];
    await nextMacrotask();
  };
  for (const file of files) {
    batch.push(file);
    if (batch.length >= HASH_BATCH) await hash();
  }
  if (batch.length > 0) await hash();
  return ids;
}

/** The snapshot of `files` (and `folders`, for empty ones): its trees, and each distinct file once as a blob. */
export async function snapshotOfFiles(files: FileMap, folders: Iterable<string> = []): Promise<FilesSnapshot> {
  return snapshotOfHashedFiles(files, await blobIdsOf(files), folders);
}

/** snapshotOfFiles for files whose blob ids (`ids`, by path, one for each) our code hashed from these bytes already. */
export async function snapshotOfHashedFiles(files: FileMap, ids: Map<string, ObjectId>, folders: Iterable<string> = []): Promise<FilesSnapshot> {
  const listing: FlatEntry[] = [...folders].map((path) => ({ path, kind: 'dir' as const }));
  const blobs = new Map<ObjectId, Uint8Array>();
  for (const [path, data] of files) {
    const id = ids.get(path)!;
    blobs.set(id, data);
    listing.push({ path, kind: 'file', id, size: data.length });
  }
  const built = await buildTrees(listing);
  return { root: built.root, objects: { blobs, trees: built.trees } };
}

/** The files of tree `root`, and its folders (empty ones included). */
export async function filesOfTree(reader: ObjectReader, root: ObjectId): Promise<{ files: FileMap; folders: string[] }> {
  const { files, folders } = await listTree(reader, root);
  const blobs = await reader.blobs(files.map((f) => f.id));
  return { files: new Map(files.map((f) => [f.path, blobs.get(f.id)!])), folders };
}

/** The files of tree `root` with the blob id each is stored under (what git's objects are keyed by too). */
export async function identifiedFilesOfTree(reader: ObjectReader, root: ObjectId): Promise<{ path: string; id: ObjectId; data: Uint8Array }[]> {
  const { files } = await listTree(reader, root);
  const blobs = await reader.blobs(files.map((f) => f.id));
  return files.map((f) => ({ path: f.path, id: f.id, data: blobs.get(f.id)! }));
}

/** Tree `root` as a workspace zip (stored, folders included), the format every runtime imports. */
export async function zipOfTree(reader: ObjectReader, root: ObjectId): Promise<Uint8Array> {
  const { files, folders } = await filesOfTree(reader, root);
  return writeStoredZip([...folders.map((path) => ({ path: `${path}/`, data: new Uint8Array(0) })), ...[...files].map(([path, data]) => ({ path, data }))]);
}

/** Every tree reachable from `roots`, and the ids of every file they hold. */
export async function collectTrees(reader: TreeSource, roots: Iterable<ObjectId>): Promise<{ trees: Map<ObjectId, Tree>; blobIds: Set<ObjectId> }> {
  const trees = new Map<ObjectId, Tree>();
  const blobIds = new Set<ObjectId>();
  await walkTrees(reader, roots, (tree) => {
    trees.set(tree.id, tree);
    for (const entry of tree.entries) if (entry.kind === 'file') blobIds.add(entry.id);
  });
  return { trees, blobIds };
}

/** A reader over objects already in memory. */
export function memoryReader(trees: Map<ObjectId, Tree>, blobs: Map<ObjectId, Uint8Array>): ObjectReader {
  return {
    tree: async (id) => {
      const tree = trees.get(id) ?? (id === EMPTY_TREE_ID ? { id, entries: [] } : undefined);
      if (!tree) throw new Error(`Folder ${id} is not among the objects read.`);
      return tree;
    },
    blobs: async (ids) => new Map([...ids].map((id) => {
      const data = blobs.get(id);
      if (!data) throw new Error(`File ${id} is not among the objects read.`);
      return [id, data];
    })),
  };
}
