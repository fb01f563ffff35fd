// `npm run <script>`, `npm test`, `npm start` and `npx <bin>`: the script runs through the same shell (the embedded
// bash, with its node and npm), in the project folder, with every node_modules/.bin from there up on PATH and npm's
// own variables set. `pre<name>` and `post<name>` scripts run around it, as npm does.

import type { CommandContext, ExecResult } from 'just-bash';
import { findProjectRoot, isFile, readProject } from './project-files';
import type { ProjectManifest } from './package-version';

export type ScriptContext = Pick<CommandContext, 'fs' | 'cwd' | 'env' | 'signal'> & { exec: NonNullable<CommandContext['exec']> };

/** Runs script `name` of the project around `ctx.cwd`, with `args` appended (shell-quoted). */
export async function runScript(name: string | undefined, args: string[], options: { silent: boolean; ifPresent: boolean }, ctx: ScriptContext): Promise<ExecResult> {
  const root = await findProjectRoot(ctx.fs, ctx.cwd);
  if (!root) return failure(`npm error there is no package.json in ${ctx.cwd} or above; cd into the project first`);
  let project: ProjectManifest;
  try {
    project = (await readProject(ctx.fs, root))!;
  } catch (error) {
    return failure(`npm error ${error instanceof Error ? error.message : String(error)}`);
  }
  if (name === undefined) return listScripts(project);
  let command = project.scripts[name];
  if (command === undefined && name === 'start' && (await isFile(ctx.fs, `${root}/server.js`))) command = 'node server.js';
  if (command === undefined && name === 'restart') {
    return runSequence(root, project, ['stop', 'start'].filter((n) => project.scripts[n] !== undefined), [], options, ctx);
  }
  if (command === undefined) {
    if (options.ifPresent) return { stdout: '', stderr: '', exitCode: 0 };
    const available = Object.keys(project.scripts);
    return failure(`npm error Missing script: "${name}"${available.length > 0 ? ` (this package.json has: ${available.join(', ')})` : ' (this package.json has no scripts)'}`);
  }
  const order = [`pre${name}`, name, `post${name}`].filter((n) => n === name || project.scripts[n] !== undefined);
  return runSequence(root, { ...project, scripts: { ...project.scripts, [name]: command } }, order, args, options, ctx, name);
}

/** Runs installed bin `bin` (npx) with `args`: from node_modules/.bin at or above the cwd. */
export async function runBin(bin: string, args: string[], ctx: ScriptContext): Promise<ExecResult> {
  const root = (await findProjectRoot(ctx.fs, ctx.cwd)) ?? ctx.cwd;
  for (const dir of binDirs(root)) {
    if (await isFile(ctx.fs, `${dir}/${bin}`)) {
      return ctx.exec([quote(`${dir}/${bin}`), ...args.map(quote)].join(' '), { cwd: ctx.cwd, env: scriptEnv(root, undefined, ctx), signal: ctx.signal });
    }
  }
  return failure(
    `npx: ${bin} is not installed in node_modules/.bin here; the embedded npx runs installed bins only. ` +
      `Install the package that provides it first (npm install -D <package>), then run npx ${bin} again`,
  );
}

async function runSequence(root: string, project: ProjectManifest, names: string[], args: string[], options: { silent: boolean }, ctx: ScriptContext, main?: string): Promise<ExecResult> {
  let stdout = '';
  let stderr = '';
  for (const name of names) {
    const command = project.scripts[name] + (name === main && args.length > 0 ? ` ${args.map(quote).join(' ')}` : '');
    if (!options.silent) stdout += `\n> ${project.name ? `${project.name}${project.version ? `@${project.version}` : ''} ` : ''}${name}\n> ${command}\n\n`;
    const result = await ctx.exec(command, { cwd: root, env: scriptEnv(root, { name, command, project }, ctx), signal: ctx.signal });
    stdout += result.stdout;
    stderr += result.stderr;
    if (result.exitCode !== 0) {
      stderr += `npm error script "${name}" failed: \`${command}\` exited with code ${result.exitCode}\n`;
      return { stdout, stderr, exitCode: result.exitCode };
    }
  }
  return { stdout, stderr, exitCode: 0 };
}

function listScripts(project: ProjectManifest): ExecResult {
  const entries = Object.entries(project.scripts);
  if (entries.length === 0) return { stdout: '', stderr: '', exitCode: 0 };
  const label = project.name ? `${project.name}${project.version ? `@${project.version}` : ''}` : 'this package';
  const lines = entries.map(([name, command]) => `  ${name}\n    ${command}`);
  return { stdout: `Scripts available in ${label} via \`npm run-script\`:\n${lines.join('\n')}\n`, stderr: '', exitCode: 0 };
}

/** The script's environment: PATH with every node_modules/.bin from the project up, and npm's variables. */
function scriptEnv(root: string, script: { name: string; command: string; project: ProjectManifest } | undefined, ctx: ScriptContext): Record<string, string> {
  const path = [...binDirs(root), ctx.env.get('PATH') ?? '/usr/local/bin:/usr/bin:/bin'].join(':');
  const env: Record<string, string> = { PATH: path, INIT_CWD: ctx.cwd, npm_config_user_agent: 'npm/10.8.2 node/v20.19.0 conch-embedded' };
  if (script) {
    env.npm_lifecycle_event = script.name;
    env.npm_lifecycle_script = script.command;
    env.npm_command = 'run-script';
    if (script.project.name) env.npm_package_name = script.project.name;
    if (script.project.version) env.npm_package_version = script.project.version;
  }
  return env;
}

/** `<dir>/node_modules/.bin` for the project folder and each folder above it. */
function binDirs(root: string): string[] {
  const dirs: string[] = [];
  for (let dir = root; ; dir = dir.slice(0, dir.lastIndexOf('/')) || '/') {
    dirs.push(`${dir === '/' ? '' : dir}/node_modules/.bin`);
    if (dir === '/') return dirs;
  }
}

/** One shell word. */
function quote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

function failure(line: string): ExecResult {
  return { stdout: '', stderr: `${line}\n`, exitCode: 1 };
}
