// Workspace zip entries as the FileSystemTree `WebContainer.mount()` takes.

import type { WcFileSystemTree } from './webcontainer-like';
import type { WorkspaceEntry } from '../zip/workspace-zip';

/** Builds a mountable tree from unpacked zip entries (folders created for every file's parents). */
export function entriesToTree(entries: readonly WorkspaceEntry[]): WcFileSystemTree {
  const root: WcFileSystemTree = {};
  const folder = (segments: string[]): WcFileSystemTree => {
    let tree = root;
    for (const name of segments) {
      const node = tree[name];
      if (node && 'directory' in node) tree = node.directory;
      else {
        const created: WcFileSystemTree = {};
        tree[name] = { directory: created };
        tree = created;
      }
    }
    return tree;
  };
  for (const entry of entries) {
    const segments = entry.path.split('/');
    if (entry.kind === 'dir') folder(segments);
    else {
      const name = segments.pop() as string;
      folder(segments)[name] = { file: { contents: entry.data } };
    }
  }
  return root;
}
