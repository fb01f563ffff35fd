// A worker subagent's changes merged into the live workspace: for each file it changed since its fork, a 3-way
// merge of the fork point, the worker's tree and the live tree (file-merge.ts). The plan is all or nothing: with any
// conflict the caller applies none of it, and keeps `pending` (the worker's side of every file it changed) so the
// parent or the person can apply it later choosing a side (planApply), against the live tree as it is by then.

import type { TaskConflict, TaskPendingFile } from '../../../ai/types';
import type { ForkChange, Runtime, WorkspaceChanges } from '../../../runtime/types';
import type { Workspace } from '../../../runtime/workspace/workspace';
import { parentOf } from '../../../runtime/paths';
import { applyToRuntime } from '../../../runtime/workspace/fallbacks';
import { toBase64 } from '../../../tools/utf8';
import { decodeText, mergeFile, type ConflictSide, type FileMergeOutcome } from './file-merge';

/** What merging a worker's changes does to the live workspace. */
export type MergePlan = {
  /** What to apply to the live workspace (nothing to apply when there are conflicts). */
  changes: WorkspaceChanges;
  conflicts: TaskConflict[];
  /** Every file the worker changed (workdir-relative), in path order. */
  filesChanged: string[];
  /** The worker's side of every changed file, for a later apply. */
  pending: TaskPendingFile[];
};

/** A file's bytes in the live tree, null when it is absent (or not a file). */
export type LiveReader = (path: string) => Promise<Uint8Array | null>;

/** Plans the merge of a worker's `changes` into the live tree `readLive` reads. */
export async function planMerge(changes: ForkChange[], readLive: LiveReader): Promise<MergePlan> {
  // A worker's git commands write the fork's own repository; its commits' objects are not changes to merge.
  const files = changes.filter((change) => !isGitInternal(change.path)).map((change) => ({ path: change.path, base: change.base, worker: change.fork }));
  return plan(files, readLive, undefined);
}

const isGitInternal = (path: string) => path === '.git' || path.startsWith('.git/');

/**
 * Plans applying a conflicted worker's kept changes to the live tree as it is now: merged again, each conflicting
 * hunk (or whole file) taking `resolution`'s side; never conflicts.
 */
export async function planApply(pending: TaskPendingFile[], readLive: LiveReader, resolution: ConflictSide): Promise<MergePlan> {
  const files = pending.map((file) => ({ path: file.path, base: bytesOf(file.base, file.encoding), worker: bytesOf(file.worker, file.encoding) }));
  return plan(files, readLive, resolution);
}

/** Applies a plan without conflicts through the workspace (its watchers, checkpoints and persistence see it). */
export async function applyMergePlan(workspace: Workspace, plan: MergePlan): Promise<void> {
  if (plan.conflicts.length > 0) throw new Error(`This merge has conflicts in ${plan.conflicts.map((c) => c.path).join(', ')}; nothing was applied.`);
  await workspace.applyChanges(plan.changes);
}

/**
 * Plans and applies `changes` in one turn of the workspace, with every other call waiting, so no write lands between
 * reading the live tree and changing it (two workers ending together). Applies nothing when the plan conflicts.
 */
export function mergeIntoWorkspace(workspace: Workspace, changes: ForkChange[]): Promise<MergePlan> {
  return mergeExclusively(workspace, (readLive) => planMerge(changes, readLive));
}

/** planApply and its application in one turn of the workspace, like mergeIntoWorkspace. */
export function applyPendingToWorkspace(workspace: Workspace, pending: TaskPendingFile[], resolution: ConflictSide): Promise<MergePlan> {
  return mergeExclusively(workspace, (readLive) => planApply(pending, readLive, resolution));
}

/** Reads a file of `runtime` for a merge: null when nothing (or a folder) is there. */
export function liveReader(runtime: Runtime): LiveReader {
  return async (path) => {
    const info = await runtime.stat(path);
    if (info === null || info.type === 'dir') return null;
    return runtime.readFile(path);
  };
}

async function mergeExclusively(workspace: Workspace, makePlan: (readLive: LiveReader) => Promise<MergePlan>): Promise<MergePlan> {
  const planned = await workspace.exclusive(async (runtime) => {
    const merge = await makePlan(liveReader(runtime));
    if (merge.conflicts.length === 0) await applyToRuntime(runtime, merge.changes);
    return merge;
  });
  if (planned.conflicts.length === 0) workspace.noteChanged(changedPaths(planned.changes));
  return planned;
}

type FileSides = { path: string; base: Uint8Array | null; worker: Uint8Array | null };

async function plan(files: FileSides[], readLive: LiveReader, side: ConflictSide | undefined): Promise<MergePlan> {
  const changes: WorkspaceChanges = { removeFiles: [], removeFolders: [], makeFolders: [], writeFiles: [] };
  const conflicts: TaskConflict[] = [];
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const file of sorted) {
    const outcome: FileMergeOutcome = mergeFile(file.base, file.worker, await readLive(file.path), side);
    if (outcome.kind === 'write') changes.writeFiles.push({ path: file.path, data: outcome.data });
    else if (outcome.kind === 'remove') changes.removeFiles.push(file.path);
    else if (outcome.kind === 'conflict') conflicts.push({ path: file.path, hunks: outcome.hunks });
  }
  // A folder the worker emptied goes too (applyChanges keeps any that still holds something).
  const folders = new Set<string>();
  for (const path of changes.removeFiles) for (let folder = parentOf(path); folder !== '.' && folder !== '' && folder !== '/'; folder = parentOf(folder)) folders.add(folder);
  changes.removeFolders = [...folders].sort((a, b) => b.length - a.length);
  return {
    changes: conflicts.length > 0 ? { removeFiles: [], removeFolders: [], makeFolders: [], writeFiles: [] } : changes,
    conflicts,
    filesChanged: sorted.map((file) => file.path),
    pending: sorted.map(pendingOf),
  };
}

function pendingOf(file: FileSides): TaskPendingFile {
  const texts = [file.base, file.worker].map((bytes) => (bytes === null ? null : decodeText(bytes)));
  if (texts.every((text) => text !== undefined)) return { path: file.path, base: texts[0] ?? null, worker: texts[1] ?? null };
  const encode = (bytes: Uint8Array | null) => (bytes === null ? null : toBase64(bytes));
  return { path: file.path, base: encode(file.base), worker: encode(file.worker), encoding: 'base64' };
}

function bytesOf(stored: string | null, encoding: TaskPendingFile['encoding']): Uint8Array | null {
  if (stored === null) return null;
  if (encoding !== 'base64') return new TextEncoder().encode(stored);
  const binary = atob(stored);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function changedPaths(changes: WorkspaceChanges): string[] {
  return [...changes.removeFiles, ...changes.removeFolders, ...changes.writeFiles.map((file) => file.path)];
}
