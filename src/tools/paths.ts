// Path handling for tools: the model gives paths relative to the runtime's workdir or absolute ones.
import type { Runtime } from '../runtime/types';

/** Resolves `path` (relative to `workdir`, or absolute) to a normalized absolute POSIX path. */
export function resolvePath(workdir: string, path: string): string {
  const trimmed = path.trim();
  if (trimmed === '' || trimmed === '.') return normalizeAbsolute(workdir);
  const joined = trimmed.startsWith('/') ? trimmed : `${workdir}/${trimmed}`;
  return normalizeAbsolute(joined);
}

/** Resolves `path` against the runtime's workdir. */
export function resolveToolPath(runtime: Pick<Runtime, 'workdir'>, path: string): string {
  return resolvePath(runtime.workdir, path);
}

/** The path as the model should see it: relative to workdir when inside it, absolute otherwise. */
export function displayPath(workdir: string, absolute: string): string {
  const root = normalizedRoot(workdir);
  if (absolute === root) return '.';
  const prefix = root === '/' ? '/' : `${root}/`;
  return absolute.startsWith(prefix) ? absolute.slice(prefix.length) : absolute;
}

/** `child` relative to `parent` when it lies inside it (no `..`), else null. */
export function relativeInside(parent: string, child: string): string | null {
  if (child === parent) return '';
  const prefix = parent === '/' ? '/' : `${parent}/`;
  return child.startsWith(prefix) ? child.slice(prefix.length) : null;
}

export function joinPath(dir: string, name: string): string {
  return dir === '/' ? `/${name}` : `${dir}/${name}`;
}

export function parentOf(path: string): string {
  const cut = path.lastIndexOf('/');
  return cut <= 0 ? '/' : path.slice(0, cut);
}

// find and grep show thousands of paths under one workdir: it is normalised once, not once per path.
let lastWorkdir: string | undefined;
let lastRoot = '/';
function normalizedRoot(workdir: string): string {
  if (workdir !== lastWorkdir) {
    lastRoot = normalizeAbsolute(workdir);
    lastWorkdir = workdir;
  }
  return lastRoot;
}

function normalizeAbsolute(path: string): string {
  const parts: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') parts.pop();
    else parts.push(segment);
  }
  return `/${parts.join('/')}`;
}
