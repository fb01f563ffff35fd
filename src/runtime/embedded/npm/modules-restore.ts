// node_modules is left out of saved sessions (snapshots, shared session files), so a restored workspace has a
// package-lock.json and no node_modules. The runtime arms this after each restore; the first command that needs the
// packages (npm run, npm test, npx, node) then reinstalls them from the lockfile and the tarball cache, saying so
// in one line. Each project folder is checked once per restore, and a node_modules that exists is never touched.

import type { IFileSystem } from 'just-bash';
import type { NpmEnvironment } from './environment';

export class ModulesRestore {
  private armed = false;
  /** Each project folder's check since the last restore; a second command waits for the first one's. */
  private readonly checks = new Map<string, Promise<string>>();

  constructor(private readonly environment: NpmEnvironment) {}

  /** The workspace was just restored from a snapshot: check again on next need. */
  arm(): void {
    this.armed = true;
    this.checks.clear();
  }

  /**
   * Before a command that needs node_modules in the project around `cwd`: reinstalls it when a restore left it
   * out. Returns the one line to show ('' when nothing was needed, or when another command already showed it).
   * Never throws: a failure is that line.
   */
  async beforeUse(fs: IFileSystem, cwd: string, signal?: AbortSignal): Promise<string> {
    if (!this.armed) return '';
    const { findProjectRoot } = await import('./project-files');
    const root = await findProjectRoot(fs, cwd);
    if (root === undefined) return '';
    const earlier = this.checks.get(root);
    if (earlier) {
      await earlier;
      return '';
    }
    const check = this.check(fs, root, signal);
    this.checks.set(root, check);
    return check;
  }

  private async check(fs: IFileSystem, root: string, signal: AbortSignal | undefined): Promise<string> {
    const { isDirectory, isFile } = await import('./project-files');
    if (!(await isFile(fs, `${root}/package-lock.json`)) || (await isDirectory(fs, `${root}/node_modules`))) return '';
    return this.reinstall(fs, root, signal);
  }

  private async reinstall(fs: IFileSystem, root: string, signal: AbortSignal | undefined): Promise<string> {
    const { install } = await import('./install');
    const { errorLine } = await import('./install-error');
    try {
      const outcome = await install({ mode: 'restore' }, { fs, root, environment: this.environment, signal });
      const fetched = outcome.lines.find((line) => line.startsWith('npm: fetched'))?.replace(/^npm: fetched \d+ tarballs? /, '') ?? '';
      return `npm: node_modules is not kept in saved sessions, so it was reinstalled from package-lock.json: ${outcome.installed} packages ${fetched}\n`;
    } catch (error) {
      return `npm: node_modules is not kept in saved sessions and could not be reinstalled from package-lock.json: ${errorLine(error)}. Run npm install\n`;
    }
  }
}
