// The `actions[]` of one GitLab commit. GitLab's actions act on the branch as it stands, so they are planned against
// what the branch holds: the imported files at the first push, and after it what this session last pushed (the
// record's `files`). A file edited again is updated, one deleted once is not deleted twice, and one put back as it
// was imported is restored from the imported commit (`baseline`).
import { gitBlobId } from '../../runtime/object-id';
import { base64Of } from '../base64';
import { textOf, type FileChange } from '../file-change';
import { symlinkRefused } from './merge-request-errors';

/** What the branch holds at a path this session pushed: present (with an id of its bytes and mode) or deleted. */
export type PushedFile = { present: boolean; id: string; inBaseline: boolean };

type Content = { content: string; encoding: 'text' | 'base64' };
export type GitLabAction =
  | ({ action: 'create' | 'update'; file_path: string } & Content)
  | ({ action: 'move'; file_path: string; previous_path: string } & Content)
  | { action: 'delete'; file_path: string }
  | { action: 'chmod'; file_path: string; execute_filemode: boolean };

type Wanted = { present: true; id: string; data: Uint8Array; executable: boolean; inBaseline: boolean; movedFrom?: string } | { present: false; inBaseline: boolean };

/** The actions that take the branch from `pushed` to the changes, and what the branch then holds. */
export async function plannedActions(
  changes: readonly FileChange[], pushed: Readonly<Record<string, PushedFile>>, baseline: (path: string) => Promise<Uint8Array>,
): Promise<{ actions: GitLabAction[]; files: Record<string, PushedFile> }> {
  const wanted = new Map<string, Wanted>();
  for (const change of changes) {
    if ('symlinkTarget' in change) throw symlinkRefused(change.path);
    const inBaseline = change.kind !== 'added';
    if (change.kind === 'deleted') wanted.set(change.path, { present: false, inBaseline });
    else {
      const executable = change.executable === true;
      const id = `${await gitBlobId(change.data)}${executable ? ':x' : ''}`;
      wanted.set(change.path, { present: true, id, data: change.data, executable, inBaseline, movedFrom: change.movedFrom });
    }
  }
  // A path pushed before and no longer changed is back as imported: restore it (or remove it, if it was new).
  for (const [path, file] of Object.entries(pushed)) {
    if (wanted.has(path)) continue;
    wanted.set(path, file.inBaseline ? { present: true, id: 'baseline', data: await baseline(path), executable: false, inBaseline: true } : { present: false, inBaseline: false });
  }

  const actions: GitLabAction[] = [];
  const files: Record<string, PushedFile> = {};
  for (const [path, want] of [...wanted].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const before = pushed[path];
    const onBranch = before ? before.present : want.inBaseline;
    if (want.present) {
      if (want.id !== 'baseline') files[path] = { present: true, id: want.id, inBaseline: want.inBaseline };
      if (before?.present && before.id === want.id) continue;
      actions.push({ action: onBranch ? 'update' : 'create', file_path: path, ...contentOf(want.data) });
      if (want.executable) actions.push({ action: 'chmod', file_path: path, execute_filemode: true });
    } else {
      if (want.inBaseline) files[path] = { present: false, id: '', inBaseline: true };
      if (onBranch) actions.push({ action: 'delete', file_path: path });
    }
  }
  return { actions: asMoves(actions, wanted), files };
}

// A rename the app reported (an added file `movedFrom` a deleted one) goes as one move, as GitLab shows renames.
function asMoves(actions: GitLabAction[], wanted: Map<string, Wanted>): GitLabAction[] {
  const deletes = new Set(actions.filter((a) => a.action === 'delete').map((a) => a.file_path));
  const moved = new Set<string>();
  const out = actions.map((action): GitLabAction => {
    const want = wanted.get(action.file_path);
    const from = want?.present ? want.movedFrom : undefined;
    if (action.action !== 'create' || !from || !deletes.has(from)) return action;
    moved.add(from);
    return { action: 'move', file_path: action.file_path, previous_path: from, content: action.content, encoding: action.encoding };
  });
  return out.filter((action) => !(action.action === 'delete' && moved.has(action.file_path)));
}

function contentOf(data: Uint8Array): Content {
  const text = textOf(data);
  if (text !== null) return { content: text, encoding: 'text' };
  return { content: base64Of(data), encoding: 'base64' };
}
