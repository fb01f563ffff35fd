// Glob matching for the search tools: a pattern without "/" matches the name at any depth, one with "/" the path.
import { Minimatch } from 'minimatch';

/**
 * A matcher for paths relative to the searched folder, e.g. "*.ts" or "src/**\/*.svelte" (minimatch with dotfiles
 * matched, and matchBase for patterns without "/"). Compile once, match many paths.
 */
export function compileGlob(glob: string): (relative: string) => boolean {
  const pattern = glob.startsWith('./') ? glob.slice(2) : glob;
  if (pattern.includes('/')) {
    const matcher = new Minimatch(pattern, { dot: true });
    return (relative) => matcher.match(relative);
  }
  // What matchBase does for a pattern without "/", minus splitting the whole path for every match.
  const matcher = new Minimatch(pattern, { dot: true });
  return (relative) => matcher.match(relative.slice(relative.lastIndexOf('/') + 1));
}
