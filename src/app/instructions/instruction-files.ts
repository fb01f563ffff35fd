// Which files are a repo's instructions for coding agents, as Codex, Pi and Claude Code read them: one per folder,
// AGENTS.override.md over AGENTS.md over CLAUDE.md. The root's goes in the system prompt; the others are listed there
// by path and attached to the first tool result that works on a file under their folder.

/** The names, the one that wins in a folder first. */
export const INSTRUCTION_FILE_NAMES = ['AGENTS.override.md', 'AGENTS.md', 'CLAUDE.md'] as const;

/** The runtime-side name search that finds them all at once (node_modules and .git are never walked). */
export const INSTRUCTION_FILES_GLOB = `{${INSTRUCTION_FILE_NAMES.join(',')}}`;

/** A folder's instruction file: `folder` is workdir-relative ('' for the root), `path` the file's. */
export type InstructionSource = { folder: string; path: string };

/** The files that apply, per folder: the root's (or null), and the nested ones in path order. */
export type FoundInstructions = { root: InstructionSource | null; nested: InstructionSource[] };

const RANK = new Map<string, number>(INSTRUCTION_FILE_NAMES.map((name, rank) => [name, rank]));

/** True when a workdir-relative path names an instruction file (in any folder). */
export function isInstructionFileName(path: string): boolean {
  return RANK.has(baseName(path));
}

/** The winning file of each folder among `paths` (workdir-relative files, any order). */
export function chooseInstructionFiles(paths: readonly string[]): FoundInstructions {
  const best = new Map<string, { path: string; rank: number }>();
  for (const path of paths) {
    const rank = RANK.get(baseName(path));
    if (rank === undefined) continue;
    const folder = folderOf(path);
    const held = best.get(folder);
    if (!held || rank < held.rank) best.set(folder, { path, rank });
  }
  const root = best.get('');
  const nested = [...best]
    .filter(([folder]) => folder !== '')
    .map(([folder, { path }]) => ({ folder, path }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { root: root ? { folder: '', path: root.path } : null, nested };
}

/** The nested sources that cover the workdir-relative file `path`, the nearest folder first. */
export function sourcesCovering(nested: readonly InstructionSource[], path: string): InstructionSource[] {
  return nested
    .filter((source) => path.startsWith(`${source.folder}/`))
    .sort((a, b) => b.folder.length - a.folder.length);
}

/** How a folder is named to the model: workdir-relative with a trailing slash. */
export function folderLabel(folder: string): string {
  return folder === '' ? './' : `${folder}/`;
}

function folderOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
