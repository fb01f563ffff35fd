// The workspace zip format both runtimes share, so a session can move between them: entries are paths relative to
// the workdir, folders are `name/` entries with no data (empty folders survive), files are byte-exact.

import { unzipSync, zipSync, type Zippable } from 'fflate';
import { minimatch } from 'minimatch';
import type { WorkspaceFile } from '../types';

export type { WorkspaceFile };

/** What `exportZip()` leaves out when no `exclude` list is given. */
export const DEFAULT_ZIP_EXCLUDE: readonly string[] = ['node_modules/**', '**/node_modules/**'];

export type WorkspaceEntry = { path: string; kind: 'file'; data: Uint8Array } | { path: string; kind: 'dir' };

/** A predicate telling whether a workdir-relative path (folders without a trailing slash) is excluded. */
export function makeExcluder(patterns: readonly string[]): (path: string) => boolean {
  if (patterns.length === 0) return () => false;
  return (path) =>
    patterns.some(
      (pattern) =>
        minimatch(path, pattern, { dot: true }) ||
        // `node_modules/**` names the folder's contents; the folder itself goes too.
        minimatch(`${path}/x`, pattern, { dot: true }),
    );
}

/** Packs workspace entries into a zip (level 1: snapshots are frequent, speed beats ratio). */
export function packWorkspaceZip(entries: Iterable<WorkspaceEntry>): Uint8Array {
  const zippable: Zippable = {};
  for (const entry of entries) {
    if (entry.kind === 'dir') zippable[`${entry.path}/`] = new Uint8Array(0);
    else zippable[entry.path] = entry.data;
  }
  return zipSync(zippable, { level: 1 });
}

/** Unpacks a workspace zip, rejecting entries that would land outside the workdir. */
export function unpackWorkspaceZip(zip: Uint8Array): WorkspaceEntry[] {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(zip);
  } catch (error) {
    throw new Error(`This is not a readable zip archive (${errorText(error)}). Export a workspace zip and try again.`);
  }
  const entries: WorkspaceEntry[] = [];
  for (const [name, data] of Object.entries(files)) {
    const isDir = name.endsWith('/');
    const path = safeEntryPath(name);
    if (path === '') continue;
    entries.push(isDir ? { path, kind: 'dir' } : { path, kind: 'file', data });
  }
  rejectFileFolderClash(entries);
  return entries;
}

/** Workspace entries for a list of files, with the same checks as a zip (nothing outside the workdir, no clashes). */
export function workspaceEntriesOf(files: readonly WorkspaceFile[]): WorkspaceEntry[] {
  const entries: WorkspaceEntry[] = [];
  for (const file of files) {
    if (!(file.data instanceof Uint8Array)) throw new Error(`The file "${file.path}" has no bytes; nothing was imported.`);
    const path = safeEntryPath(file.path);
    if (path === '') throw new Error(`The file path "${file.path}" names the workspace itself; nothing was imported.`);
    entries.push({ path, kind: 'file', data: file.data });
  }
  rejectFileFolderClash(entries);
  return entries;
}

// A path that is a file in one entry and a folder in another cannot be written; caught before anything is deleted.
function rejectFileFolderClash(entries: readonly WorkspaceEntry[]): void {
  const files = new Set<string>();
  for (const entry of entries) if (entry.kind === 'file') files.add(entry.path);
  for (const entry of entries) {
    if (entry.kind === 'dir' && files.has(entry.path)) {
      throw new Error(`"${entry.path}" is both a file and a folder in this workspace; nothing was imported.`);
    }
    let cut = entry.path.lastIndexOf('/');
    while (cut > 0) {
      const parent = entry.path.slice(0, cut);
      if (files.has(parent)) {
        throw new Error(`"${parent}" is both a file and a folder in this workspace; nothing was imported.`);
      }
      cut = parent.lastIndexOf('/');
    }
  }
}

/** `name` as a workdir-relative path ('' for the workdir itself); throws when it would land outside the workdir. */
export function safeEntryPath(name: string): string {
  const segments = name.replace(/\\/g, '/').split('/').filter((s) => s !== '' && s !== '.');
  if (name.startsWith('/') || segments.includes('..')) {
    throw new Error(`The zip entry "${name}" points outside the workspace; the archive was not imported.`);
  }
  return segments.join('/');
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
