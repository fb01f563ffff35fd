// One embedded runtime per test file for the `node` tests: its engine worker stays warm between tests, which is
// what keeps these tests fast. `run` gives the exit code and the output (stdout and stderr merged, in order).
// `engine: 'browser'` runs node on the browser engine, through the sandbox frame's Node stand-in.

import { afterAll } from 'vitest';
import { createEmbeddedRuntime, type EmbeddedRuntime } from '../in-process';
import { NodeEngineChoice } from '../node/engine-choice';
import { createNodeSandboxEngine } from '../node/sandbox/node-stand-in';

export type NodeWorkspace = {
  runtime: EmbeddedRuntime;
  /** Runs a shell command (e.g. `node -e ...`) in the workspace. */
  run(command: string, opts?: { timeoutMs?: number; signal?: AbortSignal }): Promise<{ output: string; exitCode: number | null }>;
  write(files: Record<string, string>): Promise<void>;
};

/** A workspace with `files`, disposed after the test file. */
export function nodeWorkspace(files: Record<string, string> = {}, options: { engine?: 'browser' | 'quickjs' } = {}): NodeWorkspace {
  const nodeEngines = new NodeEngineChoice();
  if (options.engine === 'browser') nodeEngines.set(createNodeSandboxEngine(), "the browser engine, in the sandbox frame's Node stand-in");
  const runtime = createEmbeddedRuntime({ files, nodeEngines });
  afterAll(() => runtime.dispose());
  return {
    runtime,
    run: (command, opts) => runtime.exec(command, opts),
    write: async (more) => {
      for (const [path, content] of Object.entries(more)) await runtime.writeFile(path, content);
    },
  };
}
