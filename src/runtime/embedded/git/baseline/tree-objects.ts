// The tree objects of a set of files, built in memory in one pass: each folder's entries in git's order (by name
// bytes, a folder's name compared as if it ended in "/"), each tree hashed once its subfolders are.
import { writeIdBytes } from '../../../object-id';
import { compareBytes } from '../git-index';
import type { ObjectHasher } from './object-hasher';

/** A file to put in the trees: workdir-relative path, blob id (40 hex digits) and mode (0o100644, 0o100755…). */
export type TreeFile = { path: string; blobId: string; mode: number };
/** A tree object ready to store. */
export type TreeObject = { id: string; body: Uint8Array };

type Folder = { files: Map<string, TreeFile>; folders: Map<string, Folder> };
type Entry = { key: Uint8Array; head: Uint8Array; id: string };

const encoder = new TextEncoder();
const FOLDER_MODE = '40000';

/** The trees holding `files`, root last, and the root's id. */
export function treeObjects(files: readonly TreeFile[], hasher: ObjectHasher): { root: string; trees: TreeObject[] } {
  const top: Folder = { files: new Map(), folders: new Map() };
  for (const file of files) {
    const names = file.path.split('/');
    let folder = top;
    for (const name of names.slice(0, -1)) {
      let inner = folder.folders.get(name);
      if (!inner) folder.folders.set(name, (inner = { files: new Map(), folders: new Map() }));
      folder = inner;
    }
    folder.files.set(names[names.length - 1], file);
  }
  const trees: TreeObject[] = [];
  const root = writeFolder(top, trees, hasher);
  return { root, trees };
}

function writeFolder(folder: Folder, trees: TreeObject[], hasher: ObjectHasher): string {
  const entries: Entry[] = [];
  for (const [name, inner] of folder.folders) {
    const id = writeFolder(inner, trees, hasher);
    entries.push({ key: encoder.encode(`${name}/`), head: encoder.encode(`${FOLDER_MODE} ${name}\0`), id });
  }
  for (const [name, file] of folder.files) entries.push({ key: encoder.encode(name), head: encoder.encode(`${file.mode.toString(8)} ${name}\0`), id: file.blobId });
  entries.sort((a, b) => compareBytes(a.key, b.key));
  let size = 0;
  for (const entry of entries) size += entry.head.length + 20;
  const body = new Uint8Array(size);
  let at = 0;
  for (const entry of entries) {
    body.set(entry.head, at);
    at += entry.head.length;
    writeIdBytes(entry.id, body, at);
    at += 20;
  }
  const id = hasher.objectId('tree', body);
  trees.push({ id, body });
  return id;
}
