// What a push or merge request sends: the files that differ between the imported tree and the workspace, each
// added, modified or deleted, with its bytes and its mode (executable, or a symlink and its target). The app
// computes them; the GitHub and GitLab clients turn them into their own requests.

export type FileChange =
  /** `movedFrom`: the file is a rename of that path (whose deletion is listed too); GitLab then sends one move. */
  | { path: string; kind: 'added' | 'modified'; data: Uint8Array; executable?: boolean; movedFrom?: string }
  | { path: string; kind: 'added' | 'modified'; symlinkTarget: string }
  | { path: string; kind: 'deleted' };

/** Where GitHub keeps Actions workflows: a token needs the Workflows permission to change files there. */
export const WORKFLOWS_FOLDER = '.github/workflows/';

const decoder = new TextDecoder('utf-8', { fatal: true });

/** The bytes as text when they are valid UTF-8 with no NUL (what a tree's inline `content` can carry), else null. */
export function textOf(data: Uint8Array): string | null {
  if (data.includes(0)) return null;
  try {
    return decoder.decode(data);
  } catch {
    return null;
  }
}

/** The changed paths under .github/workflows/. */
export function workflowPaths(changes: readonly FileChange[]): string[] {
  return changes.filter((change) => change.path.startsWith(WORKFLOWS_FOLDER)).map((change) => change.path);
}
