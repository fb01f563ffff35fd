// A push's one tree request: the changes as edits onto the imported commit's tree. Text goes inline as `content`
// (no blob request for it), binary files by the id of a blob made first, deletions as `sha: null`; modes are
// git's (100644 a file, 100755 an executable, 120000 a symlink whose content is its target).
import { hexOf } from '../../runtime/object-id';
import { textOf, type FileChange } from '../file-change';

export type TreeEdit =
  | { path: string; mode: '100644' | '100755' | '120000'; type: 'blob'; content: string }
  | { path: string; mode: '100644' | '100755'; type: 'blob'; sha: string }
  | { path: string; mode: '100644'; type: 'blob'; sha: null };

/** The changes whose bytes are not text, which need a blob of their own before the tree. */
export function binaryFiles(changes: readonly FileChange[]): { path: string; data: Uint8Array }[] {
  const out: { path: string; data: Uint8Array }[] = [];
  for (const change of changes) if ('data' in change && textOf(change.data) === null) out.push({ path: change.path, data: change.data });
  return out;
}

/** The tree's entries, in path order; `blobOf` gives each binary file's blob id. */
export function treeEdits(changes: readonly FileChange[], blobOf: (path: string) => string): TreeEdit[] {
  const edits = changes.map((change): TreeEdit => {
    if (change.kind === 'deleted') return { path: change.path, mode: '100644', type: 'blob', sha: null };
    if ('symlinkTarget' in change) return { path: change.path, mode: '120000', type: 'blob', content: change.symlinkTarget };
    const mode = change.executable ? '100755' : '100644';
    const text = textOf(change.data);
    return text === null ? { path: change.path, mode, type: 'blob', sha: blobOf(change.path) } : { path: change.path, mode, type: 'blob', content: text };
  });
  return edits.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** A digest of a tree request, so a retry knows the tree it made is the one it needs. */
export async function treeRequestKey(request: { base_tree: string; tree: TreeEdit[] }): Promise<string> {
  const bytes = new TextEncoder().encode(JSON.stringify(request));
  return hexOf(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)));
}
