// `node` for the embedded runtime's shell, registered with just-bash in its lazy form: the engine, its worker and
// its WebAssembly load on the first `node` a person or the agent runs, never at start-up.

import type { LazyCommand } from 'just-bash';
import type { NodeEngineChoice } from './engine-choice';
import type { ModuleStore } from './module-transform/stored-modules';

export type NodeCommand = {
  /** The command to pass to `new Bash({ customCommands })`. */
  readonly command: LazyCommand;
  /** Ends the engine workers (once the command has been loaded). */
  dispose(): void;
};

/**
 * A `node` command for one shell; each shell has its own engine workers. `moduleStore` keeps transformed modules of
 * installed packages past the runtime's life (npm's cache).
 */
export function createNodeCommand(engines: NodeEngineChoice, moduleStore?: ModuleStore): NodeCommand {
  let runner: { dispose(): void } | undefined;
  let disposed = false;
  return {
    command: {
      name: 'node',
      load: async () => {
        const { NodeRunner } = await import('./node-runner');
        const created = new NodeRunner(engines, moduleStore);
        runner = created;
        if (disposed) created.dispose();
        return created.command;
      },
    },
    dispose: () => {
      disposed = true;
      runner?.dispose();
    },
  };
}
