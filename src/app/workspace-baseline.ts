// A session's imported baseline as the sandbox's git needs it (Runtime.setBaseline): its name, and its files read
// from the store only when git first runs, so opening a session or importing a big repo costs nothing more.
import type { WorkspaceBaseline } from '../runtime/types';
import { unzipToMap, type SessionRecord, type SessionStore } from '../store';

/** The baseline of stored session `record` for Runtime.setBaseline; null when the session started empty. */
export function sessionBaseline(
  store: Pick<SessionStore, 'loadSnapshot'>,
  record: Pick<SessionRecord, 'id' | 'title' | 'baselineId' | 'baselineName'>,
): WorkspaceBaseline | null {
  if (!record.baselineId) return null;
  return {
    // A session imported from a shared file does not know the zip's name; its title stands in.
    name: record.baselineName || record.title || 'the workspace',
    files: async () => {
      const zip = await store.loadSnapshot(record.id, 'baseline');
      if (!zip) throw new Error('the imported files are no longer stored in this browser');
      return Array.from(await unzipToMap(zip), ([path, data]) => ({ path, data }));
    },
  };
}
