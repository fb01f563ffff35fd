// The files a search command's operands name, as grep -r and rg take them: a file operand is searched under the name
// given, a folder operand is walked and each file under it named by the operand joined with its path below it. The
// empty operand stands for the working directory, whose files are named by their path below it alone.

import { resolvePath } from '../../paths';
import { walkSync, type WalkPolicy } from '../../search/tree-walk';
import type { MemoryTree } from '../memory-tree';
import { Unsupported } from './unsupported';

/** A file to search; `explicit` when the command line named it rather than a walk finding it. */
export type OperandFile = { absolute: string; name: string; explicit: boolean };

export type OperandRules = {
  /** How a folder operand is walked (made for each folder operand). */
  walk: () => WalkPolicy;
  /**
   * Whether an operand named on the command line (not the default working directory) is searched, by its last path
   * segment; a folder left out still counts as a folder given.
   */
  wanted?: (name: string, isDir: boolean) => boolean;
};

export type Operands = {
  files: OperandFile[];
  /** The operands that do not exist, as given. */
  missing: string[];
  /** Whether lines printed are named by their file unless told otherwise: more than one operand, or a folder among them. */
  namedByDefault: boolean;
};

/** The files `operands` name, resolved against `cwd`, in operand order and each folder's in path order. */
export function operandFiles(tree: MemoryTree, cwd: string, operands: readonly string[], rules: OperandRules): Operands {
  const files: OperandFile[] = [];
  const missing: string[] = [];
  let anyFolder = false;
  for (const given of operands) {
    const absolute = resolvePath(cwd, given === '' ? '.' : given);
    const type = tree.typeOf(absolute);
    if (type === null) {
      missing.push(given);
      continue;
    }
    const isDir = type === 'dir';
    if (isDir) anyFolder = true;
    if (given !== '' && rules.wanted && !rules.wanted(given.slice(given.lastIndexOf('/') + 1), isDir)) continue;
    if (!isDir) {
      files.push({ absolute, name: given, explicit: true });
      continue;
    }
    const base = given.replace(/(.)\/+$/, '$1');
    const prefix = given === '' ? '' : base === '/' ? '/' : `${base}/`;
    for (const entry of walkSync(absolute, rules.walk(), tree)) {
      if (entry.type === 'dir') continue;
      // Reached only by a walk that keeps links (grep -R): a linked folder would have to be walked in turn.
      if (entry.type === 'symlink' && tree.typeOf(entry.path) === 'dir') throw new Unsupported('following a linked folder');
      files.push({ absolute: entry.path, name: prefix + entry.path.slice(absolute === '/' ? 1 : absolute.length + 1), explicit: false });
    }
  }
  return { files, missing, namedByDefault: operands.length > 1 || anyFolder };
}

/**
 * Calls `search` on each file's bytes (skipping a file no longer readable) until one finds a line, when `firstOnly`,
 * else on all; true when any did.
 */
export function searchFiles(
  tree: MemoryTree,
  files: readonly OperandFile[],
  firstOnly: boolean,
  search: (file: OperandFile, bytes: Uint8Array) => boolean,
): boolean {
  let found = false;
  for (const file of files) {
    const bytes = tree.readBytes(file.absolute);
    if (bytes === null) continue;
    if (search(file, bytes)) found = true;
    if (found && firstOnly) break;
  }
  return found;
}
