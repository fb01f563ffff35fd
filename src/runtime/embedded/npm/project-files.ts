// Reading the project's files through the shell's file system: where the project is, its package.json and its
// lockfile.

import type { IFileSystem } from 'just-bash';
import { LOCKFILE, parseLockfile, type Lockfile } from './lockfile';
import { parseProjectManifest, type ProjectManifest } from './package-version';

/** The nearest folder at or above `cwd` that has a package.json (npm's "prefix"), or undefined when none has. */
export async function findProjectRoot(fs: IFileSystem, cwd: string): Promise<string | undefined> {
  for (let dir = cwd; ; dir = dir.slice(0, dir.lastIndexOf('/')) || '/') {
    if (await isFile(fs, `${dir === '/' ? '' : dir}/package.json`)) return dir;
    if (dir === '/') return undefined;
  }
}

export async function readText(fs: IFileSystem, path: string): Promise<string | undefined> {
  if (!(await isFile(fs, path))) return undefined;
  return fs.readFile(path, 'utf8');
}

export async function isFile(fs: IFileSystem, path: string): Promise<boolean> {
  try {
    return (await fs.stat(path)).isFile;
  } catch {
    return false;
  }
}

export async function isDirectory(fs: IFileSystem, path: string): Promise<boolean> {
  try {
    return (await fs.stat(path)).isDirectory;
  } catch {
    return false;
  }
}

/** The project's package.json; undefined when there is none, a sentence thrown when it does not parse. */
export async function readProject(fs: IFileSystem, root: string): Promise<ProjectManifest | undefined> {
  const text = await readText(fs, `${root}/package.json`);
  return text === undefined ? undefined : parseProjectManifest(text);
}

/** The project's package-lock.json; undefined when there is none, a sentence thrown when it does not parse. */
export async function readLockfile(fs: IFileSystem, root: string, name = LOCKFILE): Promise<Lockfile | undefined> {
  const text = await readText(fs, `${root}/${name}`);
  return text === undefined ? undefined : parseLockfile(text, name);
}
