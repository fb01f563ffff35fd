// One embedded runtime per test file for the `node` tests: its engine worker stays warm between tests, which is
// what keeps these tests fast. `run` gives the exit code and the output (stdout and stderr merged, in order).

import { afterAll } from 'vitest';
import { createEmbeddedRuntime, type EmbeddedRuntime } from '../in-process';

export type NodeWorkspace = {
  runtime: EmbeddedRuntime;
  /** Runs a shell command (e.g. `node -e ...`) in the workspace. */
  run(command: string, opts?: { timeoutMs?: number; signal?: AbortSignal }): Promise<{ output: string; exitCode: number | null }>;
  write(files: Record<string, string>): Promise<void>;
};

/** A workspace with `files`, disposed after the test file. */
export function nodeWorkspace(files: Record<string, string> = {}): NodeWorkspace {
  const runtime = createEmbeddedRuntime({ files });
  afterAll(() => runtime.dispose());
  return {
    runtime,
    run: (command, opts) => runtime.exec(command, opts),
    write: async (more) => {
      for (const [path, content] of Object.entries(more)) await runtime.writeFile(path, content);
    },
  };
}
