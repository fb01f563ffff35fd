// `npm` and `npx` for the embedded runtime's shell, registered with just-bash in their lazy form: the installer,
// semver and the tar reader load on the first npm command, never at start-up. Also the reinstall of node_modules
// after a restore, which `node` asks for before it runs (that check is two stats; the npm code loads only when a
// reinstall is due).

import type { Command, LazyCommand } from 'just-bash';
import { ModulesRestore } from './modules-restore';
import { defaultNpmEnvironment, type NpmEnvironment } from './environment';

export type NpmCommands = {
  /** `npm` and `npx`, for `new Bash({ customCommands })`. */
  readonly commands: LazyCommand[];
  /** `command` (node) that first reinstalls node_modules when a restore left it out. */
  beforeUse(command: LazyCommand): LazyCommand;
  /** The workspace was restored from a snapshot (node_modules is not in those). */
  restored(): void;
};

/** npm for one shell, with the registry and cache `environment` gives (default: public registry, memory cache). */
export function createNpmCommands(environment: NpmEnvironment = defaultNpmEnvironment()): NpmCommands {
  const restore = new ModulesRestore(environment);
  let cli: Promise<{ npm: Command; npx: Command }> | undefined;
  const load = () => (cli ??= import('./cli').then(({ createNpmCli }) => createNpmCli({ environment, restore })));
  return {
    commands: [
      { name: 'npm', load: async () => (await load()).npm },
      { name: 'npx', load: async () => (await load()).npx },
    ],
    beforeUse: (command) => ({
      name: command.name,
      load: async () => {
        const inner = await command.load();
        return {
          name: inner.name,
          trusted: inner.trusted,
          execute: async (args, ctx) => {
            const note = await restore.beforeUse(ctx.fs, ctx.cwd, ctx.signal);
            const result = await inner.execute(args, ctx);
            return note ? { ...result, stderr: note + result.stderr } : result;
          },
        };
      },
    }),
    restored: () => restore.arm(),
  };
}
