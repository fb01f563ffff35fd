// Glob matching for the search tools: a pattern without "/" matches the name at any depth, one with "/" the path.
import { Minimatch } from 'minimatch';

/** True when `relative` (a path relative to the searched folder) matches `glob`, e.g. "*.ts" or "src/**\/*.svelte". */
export function matchesGlob(relative: string, glob: string): boolean {
  return compileGlob(glob)(relative);
}

/** `matchesGlob` with the pattern compiled once, for matching many paths. */
export function compileGlob(glob: string): (relative: string) => boolean {
  const pattern = glob.startsWith('./') ? glob.slice(2) : glob;
  const matcher = new Minimatch(pattern, { dot: true, matchBase: !pattern.includes('/') });
  return (relative) => matcher.match(relative);
}
