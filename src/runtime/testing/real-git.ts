// This machine's real git, for tests that compare the embedded runtime's `git` with it: a temporary work tree, and
// one identity, clock and configuration shared by both sides so their commits get the same ids.

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** Who commits, and when, on both sides (git reads these from the environment). */
export const SHARED_GIT_ENV: Record<string, string> = {
  GIT_AUTHOR_NAME: 'Ada Lovelace',
  GIT_AUTHOR_EMAIL: 'ada@example.com',
  GIT_AUTHOR_DATE: '1700000000 +0000',
  GIT_COMMITTER_NAME: 'Ada Lovelace',
  GIT_COMMITTER_EMAIL: 'ada@example.com',
  GIT_COMMITTER_DATE: '1700000000 +0000',
};

/** A temporary folder where `run` executes bash commands with real git, isolated from this machine's git config. */
export class RealGitWorkTree {
  readonly root: string;
  readonly dir: string;
  private readonly env: NodeJS.ProcessEnv;

  constructor() {
    this.root = mkdtempSync(join(tmpdir(), 'conch-real-git-'));
    this.dir = join(this.root, 'project');
    mkdirSync(this.dir);
    this.env = {
      PATH: process.env.PATH,
      HOME: this.root,
      LANG: 'C.UTF-8',
      TERM: 'dumb',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: join(this.root, 'gitconfig'),
      // the embedded git starts on main; git 2.39 would start on master and print a hint
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'init.defaultBranch',
      GIT_CONFIG_VALUE_0: 'main',
      ...SHARED_GIT_ENV,
    };
  }

  /** Runs `command` with bash in the work tree: its stdout and stderr together, and the exit code. */
  run(command: string): { output: string; exitCode: number } {
    try {
      return { output: execFileSync('bash', ['-c', `${command} 2>&1`], { cwd: this.dir, env: this.env, encoding: 'utf8' }), exitCode: 0 };
    } catch (error) {
      const failed = error as { stdout?: string; status?: number };
      return { output: failed.stdout ?? '', exitCode: failed.status ?? 1 };
    }
  }

  /** Writes files (work-tree-relative paths), creating their folders. */
  write(files: Record<string, string | Uint8Array>): void {
    for (const [path, content] of Object.entries(files)) {
      const target = join(this.dir, path);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, content);
    }
  }

  remove(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}
