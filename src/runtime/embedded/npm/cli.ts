// The embedded runtime's `npm` and `npx` commands: what each invocation does and how it answers (progress on stdout,
// one `npm error` line on stderr and exit code 1 when something fails). Loaded on first use (command.ts).

import { defineCommand, type Command, type CommandContext, type ExecResult } from 'just-bash';
import { errorLine, InstallError } from './install-error';
import { install, type InstallOptions } from './install';
import type { ModulesRestore } from './modules-restore';
import { parseNpmArgs, type NpmInvocation } from './args';
import { normalizeRegistry, type NpmEnvironment } from './environment';
import { findProjectRoot } from './project-files';
import { runBin, runScript, type ScriptContext } from './run-script';

export const NPM_VERSION = '10.8.2';

const USAGE = `npm <command>

Conch's embedded npm installs from the registry in settings (npm install, npm ci) and runs scripts with the
embedded node. It runs no lifecycle scripts (postinstall and the like) and cannot build native modules.

  npm install [<pkg>[@<range>] ...] [-D|-O|-E] [--no-save] [--omit=dev] [--offline]
  npm ci [--omit=dev]
  npm uninstall <pkg> ...
  npm run [<script> [-- <args>]]     npm test     npm start
  npm exec <bin> [args]              npx <bin> [args]     (installed bins only)
  npm config get registry

Use the WebContainer runtime for anything else (publishing, servers, native modules).
`;

export type NpmCliOptions = { environment: NpmEnvironment; restore: ModulesRestore };

/** The `npm` and `npx` commands for one shell. */
export function createNpmCli(options: NpmCliOptions): { npm: Command; npx: Command } {
  const npm = defineCommand('npm', async (args, ctx) => {
    try {
      return await runNpm(parseNpmArgs(args), ctx, options);
    } catch (error) {
      return { stdout: '', stderr: `npm error ${errorLine(error)}\n`, exitCode: 1 };
    }
  });
  const npx = defineCommand('npx', async (args, ctx) => {
    const rest = args.filter((arg) => arg !== '-y' && arg !== '--yes' && arg !== '--no-install' && arg !== '--');
    if (rest.length === 0 || rest[0] === '--help' || rest[0] === '-h') {
      return { stdout: 'Usage: npx <bin> [args]   (runs a bin installed in node_modules/.bin)\n', stderr: '', exitCode: rest.length === 0 ? 1 : 0 };
    }
    return withRestoreNote(await options.restore.beforeUse(ctx.fs, ctx.cwd, ctx.signal), await runBin(rest[0], rest.slice(1), scriptContext(ctx)));
  });
  return { npm, npx };
}

async function runNpm(invocation: NpmInvocation, ctx: CommandContext, options: NpmCliOptions): Promise<ExecResult> {
  switch (invocation.kind) {
    case 'help':
      return { stdout: USAGE, stderr: '', exitCode: 0 };
    case 'version':
      return { stdout: `${NPM_VERSION}\n`, stderr: '', exitCode: 0 };
    case 'config-get':
      if (invocation.key !== 'registry') return { stdout: 'undefined\n', stderr: '', exitCode: 0 };
      return { stdout: `${normalizeRegistry(await options.environment.registry())}\n`, stderr: '', exitCode: 0 };
    case 'install':
      return runInstall(
        { mode: 'install', add: invocation.specs, saveGroup: invocation.group, saveExact: invocation.exact, omitDev: invocation.omitDev, skipPeers: invocation.skipPeers, offline: invocation.offline, save: invocation.save, registry: invocation.registry },
        invocation.warnings,
        ctx,
        options,
      );
    case 'ci':
      return runInstall({ mode: 'ci', omitDev: invocation.omitDev, skipPeers: invocation.skipPeers, offline: invocation.offline, registry: invocation.registry }, invocation.warnings, ctx, options);
    case 'uninstall':
      if (invocation.names.length === 0) return { stdout: '', stderr: 'npm error npm uninstall needs the names of the packages to remove\n', exitCode: 1 };
      return runInstall({ mode: 'install', remove: invocation.names, save: invocation.save, registry: invocation.registry }, invocation.warnings, ctx, options);
    case 'run': {
      const note = await options.restore.beforeUse(ctx.fs, ctx.cwd, ctx.signal);
      const result = await runScript(invocation.script, invocation.args, invocation, scriptContext(ctx));
      return withRestoreNote(note + invocation.warnings.map((w) => `${w}\n`).join(''), result);
    }
    case 'exec': {
      if (invocation.args.length === 0) return { stdout: '', stderr: 'npm error npm exec needs a bin to run: npm exec <bin> [args]\n', exitCode: 1 };
      const note = await options.restore.beforeUse(ctx.fs, ctx.cwd, ctx.signal);
      return withRestoreNote(note, await runBin(invocation.args[0], invocation.args.slice(1), scriptContext(ctx)));
    }
    case 'unsupported':
      return {
        stdout: '',
        stderr: `npm error "npm ${invocation.command}" is not available in Conch's embedded npm (it has install, ci, uninstall, run, test, start, exec; see npm help). Use the WebContainer runtime for the rest\n`,
        exitCode: 1,
      };
    default: {
      const unknown: never = invocation;
      throw new Error(`Unknown npm invocation ${JSON.stringify(unknown)}`);
    }
  }
}

async function runInstall(install_: InstallOptions, warnings: string[], ctx: CommandContext, options: NpmCliOptions): Promise<ExecResult> {
  const root = (await findProjectRoot(ctx.fs, ctx.cwd)) ?? ctx.cwd;
  const head = warnings.map((w) => `${w}\n`).join('');
  try {
    const outcome = await install(install_, { fs: ctx.fs, root, environment: options.environment, signal: ctx.signal });
    return { stdout: head + outcome.lines.map((line) => `${line}\n`).join(''), stderr: '', exitCode: 0 };
  } catch (error) {
    if (!(error instanceof InstallError)) throw error;
    const unchanged = /node_modules is unchanged|nothing was installed/.test(error.message) ? '' : ' (node_modules is unchanged)';
    return { stdout: head, stderr: `npm error ${error.message}${unchanged}\n`, exitCode: 1 };
  }
}

function scriptContext(ctx: CommandContext): ScriptContext {
  const exec = ctx.exec;
  if (!exec) throw new Error('this shell cannot run sub-commands');
  return { fs: ctx.fs, cwd: ctx.cwd, env: ctx.env, signal: ctx.signal, exec };
}

/** The restore line, then the command's own output. */
function withRestoreNote(note: string, result: ExecResult): ExecResult {
  return note ? { ...result, stdout: note + result.stdout } : result;
}
