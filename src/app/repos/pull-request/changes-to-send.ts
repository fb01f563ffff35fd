// The Changes tab's list turned into what a push sends: each file added or modified with its bytes as the workspace
// holds them now, each deletion by path. The workspace keeps no executable bits or links, so each goes as a plain
// file here (a push to GitHub then asks which modified ones the imported commit has as executables: send-to-host).
// Nothing under .git goes (the list leaves it out unless asked; this checks again).
import type { FileChange } from '../../../remote';
import type { FileChange as ListedChange } from '../../../store';

const inHistory = (path: string) => path.split('/').includes('.git');

/** The changes with their bytes read through `readFile` (a workspace path). */
export async function changesToSend(listed: readonly ListedChange[], readFile: (path: string) => Promise<Uint8Array>): Promise<FileChange[]> {
  const kept = listed.filter((change) => !inHistory(change.path));
  return Promise.all(kept.map(async (change): Promise<FileChange> => {
    if (change.status === 'deleted') return { path: change.path, kind: 'deleted' };
    return { path: change.path, kind: change.status, data: await readFile(change.path) };
  }));
}

/** The default commit message: the session's title, then one line per changed file. */
export function defaultMessage(title: string, listed: readonly ListedChange[]): string {
  const lines = listed.filter((change) => !inHistory(change.path)).map((change) => `- ${change.status} ${change.path}`);
  return `${title.trim() || 'Changes made with Conch'}\n\n${lines.join('\n')}`.trim();
}
