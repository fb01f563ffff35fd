// The compatibility corpus (corpus.json beside this file): real packages whose published tarballs ship their tests.

import { readFileSync } from 'node:fs';

export type CorpusEntry = {
  name: string;
  version: string;
  kind: 'utility' | 'parser' | 'cli' | 'stream';
  runner: 'tape' | 'mocha' | 'node:test' | 'assert' | 'shell';
  /** Installed besides the package's dependencies: the test tools its test command uses. */
  devDependencies: Record<string, string>;
  /** Run instead of `npm test` when the package's own script needs tools outside the corpus. */
  test?: string;
  /** What the package itself declares, where the corpus differs from it. */
  declared?: string;
  /** How its tests start child processes, for the packages that do. */
  spawns?: string;
  why: string;
};

/** The corpus, in its file's order. */
export function readCorpus(): CorpusEntry[] {
  const data = JSON.parse(readFileSync(new URL('./corpus.json', import.meta.url), 'utf8')) as { packages: CorpusEntry[] };
  return data.packages;
}
