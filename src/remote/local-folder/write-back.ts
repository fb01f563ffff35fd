// "Write back to folder", in two steps with the person in between. planWriteBack reads what each changed file holds
// on disk now and classifies it: the disk still holds what the sync record says (the change can be written), or it
// changed since (a conflict, with the disk's, Conch's and the baseline's bytes for a 3-way merge). applyWriteBack
// then does what the person chose: only ticked files, deletions only when confirmed one by one, conflicts as
// decided. Each file goes through a writable that replaces it only when complete, so a failure leaves the old file
// whole; a failure on one file is reported and the others still go; what was written becomes the new baseline.
import { gitBlobId, type ObjectId } from '../../runtime/object-id';
import { InFlight } from '../github/in-flight';
import { checkDisk, statDisk } from './disk-check';
import { baseName, errorName, isNotFound, parentFolder, type FolderHandle } from './folder-handle';
import { folderSync, stampsByPath, type FileStamp, type FolderSync } from './folder-sync';
import { compare, FOLDER_CONCURRENCY } from './walk-folder';

/** One file the workspace changed since the last sync. */
export type WorkspaceChange =
  | { path: string; status: 'added' | 'modified'; data: Uint8Array }
  | { path: string; status: 'deleted' };

type Seen = { size: number; lastModified: number } | null;

/** A change the disk is ready for: it still holds the baseline. */
export type PlannedChange = {
  path: string;
  status: 'added' | 'modified' | 'deleted';
  /** Conch's bytes; null for a deletion. */
  conch: Uint8Array | null;
  /** The disk's file when planned (null: none), so a change made after the person looked is not overwritten. */
  seen: Seen;
};

/** A file changed both in Conch and on disk since the last sync (or appeared on, or vanished from, the disk). */
export type PlannedConflict = {
  path: string;
  status: 'conflict';
  /** What Conch did to the file. */
  change: WorkspaceChange['status'];
  conch: Uint8Array | null;
  /** The disk's bytes now; null when the file is gone from disk. */
  disk: Uint8Array | null;
  diskBlobId: ObjectId | null;
  /** The last sync's bytes (the merge base); null when the record had no such file or its bytes are not stored. */
  base: Uint8Array | null;
  seen: Seen;
};

export type WriteBackItem = PlannedChange | PlannedConflict;

export type WriteBackPlan = { root: FolderHandle; sync: FolderSync; items: WriteBackItem[] };

export type WriteBackRequest = {
  root: FolderHandle;
  sync: FolderSync;
  changes: WorkspaceChange[];
  /** The bytes of a blob the sync record names (the app's object store), or null when they are not kept. */
  readBase: (blobId: ObjectId) => Promise<Uint8Array | null>;
};

/** Each changed file checked against the disk, sorted by path; reads only what the check needs. */
export async function planWriteBack({ root, sync, changes, readBase }: WriteBackRequest): Promise<WriteBackPlan> {
  const stamps = stampsByPath(sync);
  const inFlight = new InFlight(FOLDER_CONCURRENCY);
  const items = await Promise.all(
    changes.map((change) =>
      inFlight.run(async (): Promise<WriteBackItem> => {
        const stamp = stamps.get(change.path);
        const conch = change.status === 'deleted' ? null : change.data;
        const { disk, unchanged } = await checkDisk(root, change.path, stamp);
        const seen = disk ? { size: disk.size, lastModified: disk.lastModified } : null;
        if (unchanged) return { path: change.path, status: change.status, conch, seen };
        // A disk that already holds Conch's version (or lost a file Conch deleted) agrees with the change: no question.
        const agrees = disk === null ? conch === null : conch !== null && disk.blobId === (await gitBlobId(conch));
        if (agrees) return { path: change.path, status: change.status, conch, seen };
        return {
          path: change.path,
          status: 'conflict',
          change: change.status,
          conch,
          disk: disk?.data ?? null,
          diskBlobId: disk?.blobId ?? null,
          base: stamp ? await readBase(stamp.blobId) : null,
          seen,
        };
      }),
    ),
  );
  return { root, sync, items: items.sort((a, b) => compare(a.path, b.path)) };
}

/** What to do with a conflict: leave the disk's version (the workspace takes it), write Conch's, or write a merge. */
export type ConflictChoice = 'keep-disk' | 'take-conch' | { merged: Uint8Array };

export type WriteBackChoices = {
  /** The ticked files; the rest stay as they are, on disk and in the record. */
  selected: ReadonlySet<string>;
  /** Deleted files whose removal the person confirmed, each on its own; an unconfirmed deletion is left alone. */
  confirmedDeletions?: ReadonlySet<string>;
  /** A choice per conflict; a ticked conflict with none is left alone. */
  conflicts?: ReadonlyMap<string, ConflictChoice>;
};

export type WriteBackFailure = { path: string; message: string };

export type WriteBackResult = {
  /** The new baseline: what was written, removed or kept from disk; every other entry as it was. */
  sync: FolderSync;
  written: string[];
  removed: string[];
  /** Conflicts where the disk's version was kept. */
  keptDisk: string[];
  /** Ticked but not done: deletions not confirmed, conflicts without a choice. */
  leftAlone: string[];
  failed: WriteBackFailure[];
  /** Files the workspace should now hold instead of Conch's version (the disk's kept, a merge); null: remove it. */
  workspaceUpdates: { path: string; data: Uint8Array | null }[];
};

type Outcome =
  | { kind: 'written'; stamp: FileStamp; workspace?: Uint8Array }
  | { kind: 'removed' }
  | { kind: 'kept-disk'; stamp: FileStamp | null; data: Uint8Array | null }
  | { kind: 'left-alone' }
  | { kind: 'failed'; message: string };

/** Carries out `plan` as chosen; never throws for one file's failure, which is reported in `failed`. */
export async function applyWriteBack(plan: WriteBackPlan, choices: WriteBackChoices): Promise<WriteBackResult> {
  const inFlight = new InFlight(FOLDER_CONCURRENCY);
  const chosen = plan.items.filter((item) => choices.selected.has(item.path));
  const outcomes = await Promise.all(chosen.map((item) => inFlight.run(() => carryOut(plan.root, item, choices))));

  const stamps = stampsByPath(plan.sync);
  const result: WriteBackResult = { sync: plan.sync, written: [], removed: [], keptDisk: [], leftAlone: [], failed: [], workspaceUpdates: [] };
  chosen.forEach((item, index) => {
    const outcome = outcomes[index];
    switch (outcome.kind) {
      case 'written':
        stamps.set(item.path, outcome.stamp);
        result.written.push(item.path);
        if (outcome.workspace) result.workspaceUpdates.push({ path: item.path, data: outcome.workspace });
        break;
      case 'removed':
        stamps.delete(item.path);
        result.removed.push(item.path);
        break;
      case 'kept-disk':
        if (outcome.stamp) stamps.set(item.path, outcome.stamp);
        else stamps.delete(item.path);
        result.keptDisk.push(item.path);
        result.workspaceUpdates.push({ path: item.path, data: outcome.data });
        break;
      case 'left-alone':
        result.leftAlone.push(item.path);
        break;
      case 'failed':
        result.failed.push({ path: item.path, message: outcome.message });
        break;
      default:
        outcome satisfies never;
    }
  });
  result.sync = folderSync(plan.sync.folderName, stamps.values());
  return result;
}

async function carryOut(root: FolderHandle, item: WriteBackItem, choices: WriteBackChoices): Promise<Outcome> {
  const confirmed = choices.confirmedDeletions?.has(item.path) ?? false;
  try {
    if (item.status !== 'conflict') {
      if (item.conch) return await writeChecked(root, item, item.conch);
      return confirmed ? await removeChecked(root, item) : { kind: 'left-alone' };
    }
    const choice = choices.conflicts?.get(item.path);
    if (choice === undefined) return { kind: 'left-alone' };
    if (choice === 'keep-disk') return await keepDisk(root, item);
    if (choice === 'take-conch') {
      if (item.conch) return await writeChecked(root, item, item.conch);
      return confirmed ? await removeChecked(root, item) : { kind: 'left-alone' };
    }
    return { ...(await writeChecked(root, item, choice.merged)), workspace: choice.merged };
  } catch (error) {
    return { kind: 'failed', message: failureMessage(item.path, item.conch ? 'written' : 'removed', error) };
  }
}

async function writeChecked(root: FolderHandle, item: WriteBackItem, data: Uint8Array): Promise<Outcome & { kind: 'written' }> {
  await checkNotChangedSince(root, item);
  const folder = await parentFolder(root, item.path, true);
  const file = await folder.getFileHandle(baseName(item.path), { create: true });
  const writable = await file.createWritable();
  try {
    await writable.write(data);
    await writable.close();
  } catch (error) {
    await writable.abort(error).catch(() => undefined);
    throw error;
  }
  const { size, lastModified } = await file.getFile();
  return { kind: 'written', stamp: { path: item.path, size, lastModified, blobId: await gitBlobId(data) } };
}

async function removeChecked(root: FolderHandle, item: WriteBackItem): Promise<Outcome> {
  await checkNotChangedSince(root, item);
  try {
    const folder = await parentFolder(root, item.path, false);
    await folder.removeEntry(baseName(item.path));
  } catch (error) {
    // Already gone is what was asked for.
    if (!isNotFound(error)) throw error;
  }
  return { kind: 'removed' };
}

async function keepDisk(root: FolderHandle, item: PlannedConflict): Promise<Outcome> {
  await checkNotChangedSince(root, item);
  const stamp = item.seen && item.diskBlobId ? { path: item.path, ...item.seen, blobId: item.diskBlobId } : null;
  return { kind: 'kept-disk', stamp, data: item.disk };
}

class ChangedSincePlanError extends Error {}

async function checkNotChangedSince(root: FolderHandle, item: WriteBackItem): Promise<void> {
  const now = await statDisk(root, item.path);
  const same = now === null ? item.seen === null : item.seen !== null && now.size === item.seen.size && now.lastModified === item.seen.lastModified;
  if (!same) throw new ChangedSincePlanError();
}

function failureMessage(path: string, done: 'written' | 'removed', error: unknown): string {
  if (error instanceof ChangedSincePlanError) {
    return `"${path}" changed on disk again after the write-back was prepared, so it was not touched; write back again to see the change.`;
  }
  const why = error instanceof Error ? error.message : String(error);
  switch (errorName(error)) {
    case 'NotAllowedError':
    case 'SecurityError':
      return `Conch may no longer edit the folder, so "${path}" was not ${done}; write back again and allow editing when asked.`;
    case 'QuotaExceededError':
      return `"${path}" could not be ${done}: the disk is full (${why}). The file on disk was left as it was; free some space and write back again.`;
    case 'TypeMismatchError':
      return `"${path}" could not be ${done}: a file and a folder on its path have the same name (${why}). Rename one on disk and write back again.`;
    default:
      return `"${path}" could not be ${done} (${why}). The file on disk was left as it was; write back again to retry.`;
  }
}
