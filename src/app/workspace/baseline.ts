// A session's imported baseline as the sandbox's git needs it (Runtime.setBaseline): its name, and its files read
// from the store only when git first runs, so opening a session or importing a big repo costs nothing more.
import type { WorkspaceBaseline } from '../../runtime/types';
import { identifiedFilesOfTree, unzipToMap, type RepoOrigin, type SessionRecord, type SessionStore } from '../../store';

/** The web address of the repository `origin` names, as `git remote -v` shows it. */
export function originUrl(origin: RepoOrigin): string {
  return `${origin.web}/${origin.owner}/${origin.repo}`;
}


/** The baseline of stored session `record` for Runtime.setBaseline; null when the session started empty. */
export function sessionBaseline(
  store: Pick<SessionStore, 'loadStoredSnapshot' | 'objects'>,
  record: Pick<SessionRecord, 'id' | 'title' | 'baselineId' | 'baselineName' | 'origin'>,
): WorkspaceBaseline | null {
  if (!record.baselineId) return null;
  return {
    ...(record.origin ? { remoteUrl: originUrl(record.origin) } : {}),
    // A session imported from a shared file does not know the zip's name; its title stands in.
    name: record.baselineName || record.title || 'the workspace',
    files: async () => {
      const stored = await store.loadStoredSnapshot(record.id, 'baseline');
      if (!stored) throw new Error('the imported files are no longer stored in this browser');
      // Read from the tree's files directly, with the ids they are stored under: no zip built only to be unpacked
      // again, and no file hashed again by git.
      if ('tree' in stored) return (await identifiedFilesOfTree(store.objects, stored.tree)).map(({ path, id, data }) => ({ path, data, blobId: id }));
      return Array.from(await unzipToMap(stored.zip), ([path, data]) => ({ path, data }));
    },
  };
}
