// Walks a folder tree through the Runtime (no shell: the WebContainer has no ripgrep), skipping node_modules,
// .git and whatever the .gitignore files along the way exclude.
import ignore, { type Ignore } from 'ignore';
import type { EntryType, Runtime } from '../runtime/types';
import { joinPath, parentOf, relativeTo } from './paths';

const ALWAYS_SKIPPED = new Set(['node_modules', '.git']);

export interface TreeEntry {
  absolute: string;
  type: EntryType;
}

interface IgnoreRule {
  base: string;
  matcher: Ignore;
}

/** Every entry under `root` (not `root` itself), depth first, each folder's entries in name order. */
export async function* walkTree(runtime: Runtime, root: string, signal?: AbortSignal): AsyncGenerator<TreeEntry> {
  const rules = await ancestorRules(runtime, root);
  yield* walkFolder(runtime, root, rules, signal);
}

async function* walkFolder(
  runtime: Runtime,
  folder: string,
  inherited: IgnoreRule[],
  signal?: AbortSignal,
): AsyncGenerator<TreeEntry> {
  if (signal?.aborted) return;
  let entries: { name: string; type: EntryType }[];
  try {
    entries = await runtime.readdir(folder);
  } catch {
    return; // unreadable folders are skipped, like `find` would report and move on
  }
  let rules = inherited;
  if (entries.some((entry) => entry.name === '.gitignore' && entry.type === 'file')) {
    const matcher = await readIgnoreFile(runtime, folder);
    if (matcher) rules = [...inherited, { base: folder, matcher }];
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const isDir = entry.type === 'dir';
    if (isDir && ALWAYS_SKIPPED.has(entry.name)) continue;
    const absolute = joinPath(folder, entry.name);
    if (ignoredBy(rules, absolute, isDir)) continue;
    yield { absolute, type: entry.type };
    if (isDir) yield* walkFolder(runtime, absolute, rules, signal);
  }
}

function ignoredBy(rules: IgnoreRule[], absolute: string, isDir: boolean): boolean {
  for (const rule of rules) {
    const relative = relativeTo(rule.base, absolute);
    if (!relative) continue;
    if (rule.matcher.ignores(isDir ? `${relative}/` : relative)) return true;
  }
  return false;
}

// .gitignore files of the folders from the filesystem root down to (not including) `root`.
async function ancestorRules(runtime: Runtime, root: string): Promise<IgnoreRule[]> {
  const folders: string[] = [];
  for (let folder = root; folder !== '/'; ) {
    folder = parentOf(folder);
    folders.unshift(folder);
  }
  const rules: IgnoreRule[] = [];
  for (const folder of folders) {
    const matcher = await readIgnoreFile(runtime, folder);
    if (matcher) rules.push({ base: folder, matcher });
  }
  return rules;
}

async function readIgnoreFile(runtime: Runtime, folder: string): Promise<Ignore | null> {
  const path = joinPath(folder, '.gitignore');
  try {
    const stat = await runtime.stat(path);
    if (stat?.type !== 'file') return null;
    return ignore().add(new TextDecoder().decode(await runtime.readFile(path)));
  } catch {
    return null;
  }
}
