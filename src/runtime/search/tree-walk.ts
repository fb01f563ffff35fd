// Walks a folder tree the way a search does: skipping folders that are never searched, hidden entries when asked,
// and whatever the ignore files along the way (and above the root) exclude. The walk asks for what it needs in
// batches, a whole level of folders at a time, so a file system behind a message channel answers each batch in one
// go; an in-memory file system answers synchronously (walkSync).

import { joinPath, parentOf } from '../paths';
import type { EntryType } from '../types';
import { GitignoreRules, type RuleVerdict } from './gitignore';

/** A folder's entries in name order (code unit order, as sort() without a comparator on the names). */
export type Listing = { name: string; type: EntryType }[];

/** What the walk asks for next: folder listings (null for an unreadable folder) or ignore files' text. */
export type WalkNeed = { kind: 'list'; folders: string[] } | { kind: 'read'; files: string[] };
type WalkAnswer = (Listing | null)[] | (string | null)[];

export type WalkedEntry = { path: string; type: EntryType };

export type IgnoreFileKind = {
  name: string;
  /** Applies only inside a git repository (a folder at or above holds .git), as ripgrep treats .gitignore. */
  needsRepo: boolean;
};

export type WalkPolicy = {
  /** Folder names never entered (nor listed as entries). */
  skipFolders: ReadonlySet<string>;
  /** Skip names starting with "." unless an ignore file explicitly re-includes them. */
  skipHidden: boolean;
  /** Ignore files read in each folder, highest precedence first. */
  ignoreFiles: readonly IgnoreFileKind[];
  /**
   * 'any': an entry is skipped when any ignore file along the way ignores it (the tools' rule). 'nearest': per kind
   * of ignore file, in precedence order, the deepest file with a rule for the entry decides, and a negated rule
   * re-includes it (ripgrep's rule).
   */
  precedence: 'any' | 'nearest';
  ignoreCase: boolean;
  /** Also apply the ignore files of the folders above the root. */
  ancestors: boolean;
  /** Entries deeper than this below the root are not walked (1: the root's own entries only). */
  maxDepth: number;
  /** Leave symbolic links out (ripgrep does unless told to follow them). */
  skipSymlinks?: boolean;
  /**
   * Decides before the ignore files do (ripgrep's -g globs): 'ignored' leaves the entry out, 'included' keeps it
   * whatever the ignore files, hiddenness or fileFilter say.
   */
  override?: (path: string, name: string, isDir: boolean) => RuleVerdict;
  /** Files (not folders) the ignore files kept that are walked, e.g. ripgrep's -t types. */
  fileFilter?: (name: string) => boolean;
};

/** The tools' walk: node_modules and .git never, dotfiles included, .gitignore files along the way and above. */
export const TOOL_WALK: WalkPolicy = {
  skipFolders: new Set(['node_modules', '.git']),
  skipHidden: false,
  ignoreFiles: [{ name: '.gitignore', needsRepo: false }],
  precedence: 'any',
  ignoreCase: true,
  ancestors: true,
  maxDepth: Infinity,
};

type Frame = { base: string; matchers: Map<string, GitignoreRules> };
type Folder = { path: string; frames: Frame[]; inRepo: boolean; depth: number };

/**
 * Every entry under `root` (not `root` itself), depth first, each folder's entries in name order. Yields what it
 * needs to read; see walkSync and walkAsync for drivers.
 */
export function* walkTree(root: string, policy: WalkPolicy): Generator<WalkNeed, WalkedEntry[], WalkAnswer> {
  let top: Folder = { path: root, frames: [], inRepo: false, depth: 0 };
  const ancestors = ancestorsOf(root);
  if (ancestors.length > 0 && (policy.ancestors || policy.ignoreFiles.some((kind) => kind.needsRepo))) {
    const listings = (yield { kind: 'list', folders: ancestors }) as (Listing | null)[];
    // Above the root a linked ignore file counts too (the tools have always looked these up through stat).
    const found = yield* readIgnoreFiles(ancestors, listings, policy, true);
    let inRepo = false;
    const frames: Frame[] = [];
    ancestors.forEach((folder, i) => {
      inRepo ||= listings[i]?.some((entry) => entry.name === '.git') ?? false;
      if (policy.ancestors && found[i]) frames.push(found[i]);
    });
    top = { path: root, frames, inRepo, depth: 0 };
    if (policy.precedence === 'any' && frames.some((frame) => ignoresFoldersDownTo(frame, root, policy))) return [];
  }

  const children = new Map<string, WalkedEntry[]>();
  let level: Folder[] = [top];
  while (level.length > 0) {
    const listings = (yield { kind: 'list', folders: level.map((folder) => folder.path) }) as (Listing | null)[];
    const own = yield* readIgnoreFiles(level.map((folder) => folder.path), listings, policy, false);
    const next: Folder[] = [];
    level.forEach((folder, i) => {
      const listing = listings[i];
      if (!listing) return; // unreadable folders are skipped, like `find` reports them and moves on
      const frame = own[i];
      const here: Folder = {
        path: folder.path,
        frames: frame ? [...folder.frames, frame] : folder.frames,
        inRepo: folder.inRepo || listing.some((entry) => entry.name === '.git'),
        depth: folder.depth,
      };
      const kept: WalkedEntry[] = [];
      for (const entry of listing) {
        const isDir = entry.type === 'dir';
        if (isDir && policy.skipFolders.has(entry.name)) continue;
        if (policy.skipSymlinks && entry.type === 'symlink') continue;
        const path = joinPath(folder.path, entry.name);
        const override = policy.override?.(path, entry.name, isDir) ?? null;
        const verdict = override ?? judge(here, path, entry.name, isDir, policy);
        if (verdict === 'ignored') continue;
        if (override === null && !isDir && policy.fileFilter && !policy.fileFilter(entry.name)) continue;
        if (policy.skipHidden && entry.name.startsWith('.') && verdict !== 'included') continue;
        kept.push({ path, type: entry.type });
        if (isDir && folder.depth + 1 < policy.maxDepth) {
          next.push({ path, frames: here.frames, inRepo: here.inRepo, depth: folder.depth + 1 });
        }
      }
      children.set(folder.path, kept);
    });
    level = next;
  }
  return depthFirst(root, children);
}

/** The ignore rules each folder holds, as one frame per folder (null where it holds none). */
function* readIgnoreFiles(
  folders: string[],
  listings: (Listing | null)[],
  policy: WalkPolicy,
  followLinks: boolean,
): Generator<WalkNeed, (Frame | null)[], WalkAnswer> {
  const wanted: { folder: number; kind: string; path: string }[] = [];
  folders.forEach((folder, i) => {
    for (const kind of policy.ignoreFiles) {
      const entry = listings[i]?.find((candidate) => candidate.name === kind.name);
      if (entry && (entry.type === 'file' || (followLinks && entry.type === 'symlink'))) {
        wanted.push({ folder: i, kind: kind.name, path: joinPath(folder, kind.name) });
      }
    }
  });
  const frames: (Frame | null)[] = folders.map(() => null);
  if (wanted.length === 0) return frames;
  const texts = (yield { kind: 'read', files: wanted.map((file) => file.path) }) as (string | null)[];
  wanted.forEach((file, i) => {
    const text = texts[i];
    if (text === null || text === undefined) return;
    const frame = (frames[file.folder] ??= { base: folders[file.folder], matchers: new Map() });
    frame.matchers.set(file.kind, new GitignoreRules(text, policy.ignoreCase));
  });
  return frames;
}

function judge(folder: Folder, path: string, name: string, isDir: boolean, policy: WalkPolicy): RuleVerdict {
  if (folder.frames.length === 0) return null;
  if (policy.precedence === 'any') {
    const kind = policy.ignoreFiles[0].name;
    for (const frame of folder.frames) {
      if (frame.matchers.get(kind)?.match(frame.base, path, name, isDir) === 'ignored') return 'ignored';
    }
    return null;
  }
  for (const kind of policy.ignoreFiles) {
    if (kind.needsRepo && !folder.inRepo) continue;
    for (let i = folder.frames.length - 1; i >= 0; i--) {
      const frame = folder.frames[i];
      const verdict = frame.matchers.get(kind.name)?.match(frame.base, path, name, isDir);
      if (verdict) return verdict;
    }
  }
  return null;
}

/** True when the rules of an ignore file above the root ignore the root or a folder between them. */
function ignoresFoldersDownTo(frame: Frame, root: string, policy: WalkPolicy): boolean {
  const rules = frame.matchers.get(policy.ignoreFiles[0].name);
  const below = root.slice(frame.base === '/' ? 1 : frame.base.length + 1).split('/');
  return (
    rules !== undefined &&
    below.some((name, i) => rules.match(frame.base, joinPath(frame.base, below.slice(0, i + 1).join('/')), name, true) === 'ignored')
  );
}

function depthFirst(root: string, children: Map<string, WalkedEntry[]>): WalkedEntry[] {
  const out: WalkedEntry[] = [];
  const visit = (folder: string): void => {
    for (const entry of children.get(folder) ?? []) {
      out.push(entry);
      if (entry.type === 'dir') visit(entry.path);
    }
  };
  visit(root);
  return out;
}

/** A source answering the walk's needs synchronously. */
export interface SyncTreeSource {
  list(folder: string): Listing | null;
  /** The text of a file (following symlinks), or null when it is not a readable file. */
  readText(file: string): string | null;
}

/** Runs walkTree against a synchronous source. */
export function walkSync(root: string, policy: WalkPolicy, source: SyncTreeSource): WalkedEntry[] {
  const steps = walkTree(root, policy);
  let step = steps.next();
  while (!step.done) {
    const need = step.value;
    step = steps.next(need.kind === 'list' ? need.folders.map((f) => source.list(f)) : need.files.map((f) => source.readText(f)));
  }
  return step.value;
}

/** A source answering each batch of the walk's needs at once. */
export interface AsyncTreeSource {
  list(folders: string[]): Promise<(Listing | null)[]>;
  readTexts(files: string[]): Promise<(string | null)[]>;
}

/** Runs walkTree against an asynchronous source, one round of requests per batch. */
export async function walkAsync(root: string, policy: WalkPolicy, source: AsyncTreeSource): Promise<WalkedEntry[]> {
  const steps = walkTree(root, policy);
  let step = steps.next();
  while (!step.done) {
    const need = step.value;
    step = steps.next(need.kind === 'list' ? await source.list(need.folders) : await source.readTexts(need.files));
  }
  return step.value;
}

/** The folders above `path` (absolute), from "/" down to its parent. */
function ancestorsOf(path: string): string[] {
  const folders: string[] = [];
  for (let folder = path; folder !== '/'; ) {
    folder = parentOf(folder);
    folders.unshift(folder);
  }
  return folders;
}
