// The path rules of the workspace, written once: POSIX, no Node `path` (the core also runs in a Web Worker). The
// runtimes, the Workspace, the tools, the policy, the store and the UI all use these.

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

/**
 * The canonical form of any path, absolute or relative: `//` collapsed, `.` and `..` resolved, no trailing slash. A
 * relative path that climbs above its start keeps its leading `..` (it names a different file); '' becomes '.'.
 */
export function normalizePath(path: string): string {
  if (path.startsWith('/')) return normalizeAbsolute(path);
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..' && parts.length > 0 && parts[parts.length - 1] !== '..') parts.pop();
    else parts.push(part);
  }
  return parts.length === 0 ? '.' : parts.join('/');
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

/** The path as a person or the model should see it: relative to `workdir` when inside it ('.' for it), else absolute. */
export function displayPath(workdir: string, absolute: string): string {
  // find and grep show thousands of paths under one workdir, which is nearly always already in canonical form.
  const canonical = workdir === '/' || (!workdir.endsWith('/') && !/\/\.{0,2}(\/|$)/.test(workdir));
  const relative = relativeTo(canonical ? workdir : normalizeAbsolute(workdir), absolute);
  if (relative === undefined) return absolute;
  return relative === '' ? '.' : relative;
}

/** True when one of two absolute paths is the other or a folder above it: an effect on one can be seen at the other. */
export function pathsOverlap(a: string, b: string): boolean {
  return isInside(a, b) || isInside(b, a);
}

/** `dir/name`, without doubling the slash at the root. */
export function joinPath(dir: string, name: string): string {
  return dir === '/' ? `/${name}` : `${dir}/${name}`;
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
