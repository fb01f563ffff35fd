// Paths that enter the workspace from outside (zips, folders, session files) are checked here, once.

/** Why `raw` may not be written into the workspace, or null if it is safe. */
export function unsafePathReason(raw: string): string | null {
  if (raw.includes('\0')) return 'contains a NUL character';
  if (raw.startsWith('/') || raw.startsWith('\\')) return 'is an absolute path';
  if (/^[A-Za-z]:/.test(raw)) return 'starts with a drive letter';
  if (raw.split(/[\\/]/).includes('..')) return 'climbs out of the folder with ".."';
  return null;
}

/** `raw` as a clean relative POSIX path ("a/./b//c" -> "a/b/c"); call only after unsafePathReason(raw) is null. */
export function normalizePath(raw: string): string {
  return raw
    .replace(/\\/g, '/')
    .split('/')
    .filter((segment) => segment !== '' && segment !== '.')
    .join('/');
}

/** Files macOS and Windows add to archives that are never part of a project. */
export function isOsMetadata(path: string): boolean {
  const segments = path.split('/');
  const name = segments.at(-1) ?? '';
  return segments.includes('__MACOSX') || name === '.DS_Store' || name === 'Thumbs.db' || name === 'desktop.ini';
}

/** The single folder every path sits in (a GitHub/GitLab download's "repo-main/"), or null if there is none. */
export function commonTopFolder(paths: Iterable<string>): string | null {
  let top: string | null = null;
  for (const path of paths) {
    const slash = path.indexOf('/');
    if (slash < 0) return null;
    const first = path.slice(0, slash + 1);
    if (top === null) top = first;
    else if (first !== top) return null;
  }
  return top;
}

/** First path that is both a file and a folder in `paths` ("a" and "a/b"), or null. */
export function findFileFolderClash(paths: Iterable<string>): string | null {
  const files = new Set(paths);
  for (const path of files) {
    for (let slash = path.indexOf('/'); slash > 0; slash = path.indexOf('/', slash + 1)) {
      if (files.has(path.slice(0, slash))) return path.slice(0, slash);
    }
  }
  return null;
}
