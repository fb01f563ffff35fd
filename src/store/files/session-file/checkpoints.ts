// Checkpoints in a session file, each file stored once however many checkpoints hold it (DESIGN.md "Session file"):
//   snapshots/checkpoints.json   {"format":"conch-checkpoints","version":1,"checkpoints":{"<seq>":"<root tree id>"}}
//   snapshots/trees/<id>         a folder: git's tree body (`<mode> <name>\0<20-byte id>` per entry)
//   snapshots/blobs/<id>         a file's bytes, unless the same bytes are already under workspace/ or baseline/
// Ids are git's, so each entry is checked against its name on import. Files written before this layout, with one
// zip per checkpoint (checkpoints/<seq>.zip), still import; older Conch versions skip these entries.
import type { Zippable } from 'fflate';
import { gitBlobId, gitObjectId, isObjectId, type ObjectId } from '../../../runtime/object-id';
import { SessionFileError } from '../../errors';
import { gitTreeBody, parseGitTreeBody, type Tree } from '../../objects/trees/codec';
import type { FileMap } from '../../types';
import type { SessionSnapshots } from '../../objects/snapshot-types';
import { sameBytes } from '../../objects/bytes';

export type { SessionSnapshots };

const FORMAT = 'conch-checkpoints';
const VERSION = 1;
export const CHECKPOINTS_ENTRY = 'snapshots/checkpoints.json';
const TREES = 'snapshots/trees/';
const BLOBS = 'snapshots/blobs/';

/** Adds `snapshots` to a session file's entries; a blob whose bytes are already among `plainFiles` is left out. */
export function addSnapshotEntries(zip: Zippable, snapshots: SessionSnapshots, plainFiles: Iterable<Uint8Array>): void {
  const bySize = new Map<number, Uint8Array[]>();
  for (const data of plainFiles) {
    const same = bySize.get(data.length);
    if (same) same.push(data);
    else bySize.set(data.length, [data]);
  }
  const alreadyThere = (data: Uint8Array) => (bySize.get(data.length) ?? []).some((other) => other === data || sameBytes(other, data));
  const index = Object.fromEntries([...snapshots.checkpoints].sort((a, b) => a[0] - b[0]).map(([seq, id]) => [String(seq), id]));
  zip[CHECKPOINTS_ENTRY] = [new TextEncoder().encode(JSON.stringify({ format: FORMAT, version: VERSION, checkpoints: index })), { level: 6 }];
  for (const [id, tree] of snapshots.trees) zip[`${TREES}${id}`] = [gitTreeBody(tree.entries), { level: 6 }];
  for (const [id, data] of snapshots.blobs) if (!alreadyThere(data)) zip[`${BLOBS}${id}`] = [data, { level: 6 }];
}

/**
 * The checkpoints of a session file's `snapshots/` entries, each checked: names are the git ids of their contents,
 * every folder and file a checkpoint reaches is there (a file may be one under workspace/ or baseline/, given in
 * `plainBlobs` by the blob ids hashed from their bytes), and each checkpoint belongs to a user message. Null when the
 * file has none. Throws SessionFileError naming the entry.
 */
export async function readSnapshotEntries(
  entries: FileMap,
  isUserMessage: (seq: number) => boolean,
  plainBlobs: Map<ObjectId, Uint8Array>,
): Promise<SessionSnapshots | null> {
  const index = entries.get(CHECKPOINTS_ENTRY);
  if (!index) return null;
  const roots = parseIndex(index, isUserMessage);
  const trees = new Map<ObjectId, Tree>();
  const blobs = new Map<ObjectId, Uint8Array>();
  const bodies = new Map<ObjectId, ReturnType<typeof parseGitTreeBody>>();
  for (const [path, data] of entries) {
    if (path.startsWith(TREES)) {
      const id = entryId(path, TREES);
      if ((await gitObjectId('tree', data)) !== id) throw damaged(path, 'its content does not match its name');
      bodies.set(id, parseGitTreeBody(data, (problem) => damaged(path, problem)));
    } else if (path.startsWith(BLOBS)) {
      const id = entryId(path, BLOBS);
      if ((await gitBlobId(data)) !== id) throw damaged(path, 'its content does not match its name');
      blobs.set(id, data);
    }
  }
  for (const [id, data] of plainBlobs) blobs.set(id, data);
  // Every folder and file a checkpoint reaches must be in the file; sizes come from the files themselves.
  const visit = (id: ObjectId, from: string): void => {
    if (trees.has(id)) return;
    const body = bodies.get(id);
    if (!body) throw new SessionFileError(`${from} refers to folder ${id}, which is not in the session file.`, { field: `${TREES}${id}` });
    const tree: Tree = { id, entries: [] };
    trees.set(id, tree);
    for (const entry of body) {
      if (entry.kind === 'dir') {
        visit(entry.id, `${TREES}${id}`);
        tree.entries.push({ name: entry.name, kind: 'dir', id: entry.id });
      } else {
        const data = blobs.get(entry.id);
        if (!data) throw new SessionFileError(`${TREES}${id} refers to file ${entry.id} ("${entry.name}"), which is not in the session file.`, { field: `${BLOBS}${entry.id}` });
        tree.entries.push({ name: entry.name, kind: 'file', id: entry.id, size: data.length, ...(entry.executable ? { executable: true } : {}) });
      }
    }
  };
  for (const [seq, root] of roots) visit(root, `checkpoint ${seq}`);
  const reached = new Set<ObjectId>();
  for (const tree of trees.values()) for (const entry of tree.entries) if (entry.kind === 'file') reached.add(entry.id);
  return { checkpoints: roots, trees, blobs: new Map([...blobs].filter(([id]) => reached.has(id))) };
}

function parseIndex(data: Uint8Array, isUserMessage: (seq: number) => boolean): Map<number, ObjectId> {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(data));
  } catch {
    throw damaged(CHECKPOINTS_ENTRY, 'it is not JSON');
  }
  const index = value as { format?: unknown; version?: unknown; checkpoints?: unknown };
  if (typeof value !== 'object' || value === null || index.format !== FORMAT) throw damaged(CHECKPOINTS_ENTRY, `"format" must be "${FORMAT}"`);
  if (index.version !== VERSION) {
    throw new SessionFileError(`${CHECKPOINTS_ENTRY} is version ${JSON.stringify(index.version)}; this Conch reads version ${VERSION}. Reload the page to get the latest Conch and import again.`, { field: CHECKPOINTS_ENTRY });
  }
  if (typeof index.checkpoints !== 'object' || index.checkpoints === null) throw damaged(CHECKPOINTS_ENTRY, '"checkpoints" must be an object');
  const roots = new Map<number, ObjectId>();
  for (const [key, id] of Object.entries(index.checkpoints)) {
    const seq = /^\d{1,8}$/.test(key) ? Number(key) : -1;
    if (!isUserMessage(seq)) throw new SessionFileError(`${CHECKPOINTS_ENTRY}: checkpoint "${key}" must be the seq of a user message of the transcript.`, { field: CHECKPOINTS_ENTRY });
    if (!isObjectId(id)) throw damaged(CHECKPOINTS_ENTRY, `checkpoint ${key} must name a folder by its 40-digit id`);
    roots.set(seq, id);
  }
  return roots;
}

function entryId(path: string, prefix: string): ObjectId {
  const id = path.slice(prefix.length);
  if (!isObjectId(id)) throw damaged(path, 'its name must be a 40-digit lowercase git id');
  return id;
}

const damaged = (path: string, problem: string) => new SessionFileError(`${path} is unusable: ${problem}.`, { field: path });
