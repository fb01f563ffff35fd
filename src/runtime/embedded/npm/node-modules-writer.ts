// The last step of an install, the only one that changes the workspace: everything it writes was fetched, checked
// and unpacked before, so an install that fails earlier leaves node_modules, package.json and the lockfile as they
// were.

import type { IFileSystem } from 'just-bash';
import type { PackageFile } from './tarball';

export type WritePlan = {
  /** Remove the whole node_modules first (npm ci, or a node_modules this npm did not make). */
  clean: boolean;
  /** Package folders (node_modules locations) to remove: gone from the tree, or about to be rewritten. */
  remove: string[];
  /** Package folders to write, each with its files. */
  packages: { location: string; files: PackageFile[] }[];
  /** node_modules/.bin entries: file name -> shim text. */
  shims: Map<string, string>;
  /** Other files, project-relative (lockfiles, package.json). */
  files: { path: string; text: string }[];
};

const EXECUTABLE = 0o755;

/** Applies `plan` under the project folder `root`; returns how many package files were written. */
export async function writeNodeModules(fs: IFileSystem, root: string, plan: WritePlan): Promise<number> {
  const modules = `${root}/node_modules`;
  if (plan.clean) await fs.rm(modules, { recursive: true, force: true });
  // Deepest first: a nested package goes before the folder holding it.
  for (const location of [...plan.remove].sort((a, b) => b.length - a.length)) {
    await fs.rm(`${root}/${location}`, { recursive: true, force: true });
  }
  const made = new Set<string>();
  const ensureDir = async (dir: string) => {
    if (made.has(dir)) return;
    await fs.mkdir(dir, { recursive: true });
    made.add(dir);
  };
  let written = 0;
  for (const pkg of plan.packages) {
    const base = `${root}/${pkg.location}`;
    await ensureDir(base);
    for (const file of pkg.files) {
      const path = `${base}/${file.path}`;
      await ensureDir(path.slice(0, path.lastIndexOf('/')));
      await fs.writeFile(path, file.data);
      written++;
    }
  }
  const binDir = `${modules}/.bin`;
  await fs.rm(binDir, { recursive: true, force: true });
  if (plan.shims.size > 0) {
    await ensureDir(binDir);
    for (const [name, text] of plan.shims) {
      await fs.writeFile(`${binDir}/${name}`, text);
      await fs.chmod(`${binDir}/${name}`, EXECUTABLE);
    }
  }
  for (const file of plan.files) {
    const path = `${root}/${file.path}`;
    await ensureDir(path.slice(0, path.lastIndexOf('/')));
    await fs.writeFile(path, file.text);
  }
  return written;
}
