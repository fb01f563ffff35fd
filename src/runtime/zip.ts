// The workspace zip format both runtimes share, so a session can move between them: entries are paths relative to
// the workdir, folders are `name/` entries with no data (empty folders survive), files are byte-exact.

import { unzipSync, zipSync, type Zippable } from 'fflate';
import { minimatch } from 'minimatch';

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
  return entries;
}

function safeEntryPath(name: string): string {
  const segments = name.replace(/\\/g, '/').split('/').filter((s) => s !== '' && s !== '.');
  if (name.startsWith('/') || segments.includes('..')) {
    throw new Error(`The zip entry "${name}" points outside the workspace; the archive was not imported.`);
  }
  return segments.join('/');
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
