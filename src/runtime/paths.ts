// Path arithmetic shared by both runtimes: POSIX, no Node `path` (the core also runs in a Web Worker).

/** Where both runtimes keep the workspace unless told otherwise. */
export const DEFAULT_WORKDIR = '/home/project';

/** Collapses `.`, `..` and duplicate slashes of an absolute path; never climbs above `/`. */
export function normalizeAbsolute(path: string): string {
  const parts: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') parts.pop();
    else parts.push(segment);
  }
  return '/' + parts.join('/');
}

/** The absolute form of `path`, read relative to `base` unless it is already absolute. */
export function resolvePath(base: string, path: string): string {
  return normalizeAbsolute(path.startsWith('/') ? path : `${base}/${path}`);
}

/** True when `absolute` is `root` itself or lies inside it. */
export function isInside(root: string, absolute: string): boolean {
  return absolute === root || absolute.startsWith(root === '/' ? '/' : `${root}/`);
}

/** `absolute` relative to `root` ('' for root itself); undefined when it lies outside. */
export function relativeTo(root: string, absolute: string): string | undefined {
  if (absolute === root) return '';
  if (!isInside(root, absolute)) return undefined;
  return absolute.slice(root === '/' ? 1 : root.length + 1);
}

/** The folder holding `absolute` (`/` for top-level entries). */
export function parentOf(absolute: string): string {
  const cut = absolute.lastIndexOf('/');
  return cut <= 0 ? '/' : absolute.slice(0, cut);
}

/** The relative path from folder `from` to `to` (both absolute): `sub/dir`, `../x`, or '' when they are the same. */
export function relativePath(from: string, to: string): string {
  const source = normalizeAbsolute(from).split('/').filter(Boolean);
  const target = normalizeAbsolute(to).split('/').filter(Boolean);
  let common = 0;
  while (common < source.length && common < target.length && source[common] === target[common]) common++;
  return [...Array<string>(source.length - common).fill('..'), ...target.slice(common)].join('/');
}
