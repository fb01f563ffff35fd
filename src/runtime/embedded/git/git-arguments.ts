// What real git accepts around a subcommand that just-git does not: the global options before it (`git -C dir`,
// `git --no-pager`, `git -c user.name=…`), paths given without `--` (`git diff src/app.js`), `-q`/`--quiet`, and
// `git diff --quiet`/`--exit-code`. That is how people and models usually write git commands, and just-git would
// print its help, "bad revision" or "Unknown option" for them.

import { resolvePath } from '../../paths';

/** A git command line ready for just-git: where it runs, the extra environment, and how to shape its result. */
export type GitInvocation = {
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /** `-q`/`--quiet` was given (just-git knows neither): what it prints when it succeeds is dropped. */
  quiet: boolean;
  /** `git diff --exit-code` or `--quiet`: the exit code says whether there are differences. */
  exitCodeFromDiff: boolean;
};

/** What a command returned, as just-git and just-bash both see it. */
export type GitResult = { stdout: string; stderr: string; exitCode: number };

/** The questions about the workspace the rewriting needs answered. */
export type ArgumentContext = {
  /** Whether `path` (absolute) is an existing folder. */
  isDirectory(path: string): Promise<boolean>;
  /** Whether `path` (absolute) exists. */
  exists(path: string): Promise<boolean>;
  /** Whether `name` resolves to a commit or other object in the repository at `cwd`. */
  isRevision(name: string, cwd: string): Promise<boolean>;
};

// Options that only concern a terminal; there is no pager or colour here anyway.
const IGNORED_GLOBAL_OPTIONS = new Set(['--no-pager', '-P', '--paginate', '-p', '--no-replace-objects', '--no-optional-locks']);
// Configuration a single command may set with -c: the identity maps to git's environment variables; the display
// settings have no effect here.
const IDENTITY_CONFIG: Record<string, string[]> = {
  'user.name': ['GIT_AUTHOR_NAME', 'GIT_COMMITTER_NAME'],
  'user.email': ['GIT_AUTHOR_EMAIL', 'GIT_COMMITTER_EMAIL'],
};
const IGNORED_CONFIG = /^(color\.|core\.pager$|pager\.|advice\.|column\.|core\.quotepath$)/;
// Subcommands whose arguments are revisions first, then paths (git tells them apart when `--` is left out).
const REVISIONS_THEN_PATHS = new Set(['diff', 'log', 'show']);
// Subcommands that real git lets be quiet.
const QUIETABLE = new Set(['init', 'commit', 'checkout', 'switch', 'restore', 'reset', 'stash', 'merge', 'rm', 'branch', 'rebase', 'cherry-pick', 'revert', 'clean', 'mv']);

/**
 * Applies git's global options in front of the subcommand (and inserts `--` before the first path of diff/log/show
 * when it was left out). Returns a message, for stderr, when an option cannot be honoured here.
 */
export async function prepareInvocation(args: readonly string[], cwd: string, context: ArgumentContext): Promise<GitInvocation | { error: string }> {
  const invocation: GitInvocation = { args: [...args], cwd, env: {}, quiet: false, exitCodeFromDiff: false };
  while (invocation.args.length > 0 && invocation.args[0].startsWith('-')) {
    const option = invocation.args[0];
    if (option === '--version' || option === '--help' || option === '-h' || option === '-v') break;
    invocation.args.shift();
    if (IGNORED_GLOBAL_OPTIONS.has(option)) continue;
    if (option === '-C') {
      const folder = invocation.args.shift();
      if (folder === undefined) return { error: 'error: switch `C\' requires a value\n' };
      const target = resolvePath(invocation.cwd, folder);
      if (!(await context.isDirectory(target))) return { error: `fatal: cannot change to '${folder}': No such file or directory\n` };
      invocation.cwd = target;
      continue;
    }
    if (option === '-c') {
      const setting = invocation.args.shift();
      if (setting === undefined) return { error: 'error: -c expects a configuration string\n' };
      const problem = applyConfig(setting, invocation.env);
      if (problem) return { error: problem };
      continue;
    }
    return {
      error:
        `fatal: the option ${option} is not supported by the embedded runtime's git. It understands -C <folder>, ` +
        `-c user.name=…/user.email=…, --no-pager, then the subcommand.\n`,
    };
  }
  const subcommand = invocation.args[0] ?? '';
  if (subcommand === 'diff') {
    const quiet = takeOptions(invocation.args, ['--quiet']);
    invocation.exitCodeFromDiff = takeOptions(invocation.args, ['--exit-code']) || quiet;
    invocation.quiet = quiet;
  } else if (QUIETABLE.has(subcommand)) {
    invocation.quiet = takeOptions(invocation.args, ['-q', '--quiet']) || takeQuietFromClusters(invocation.args);
  }
  if (REVISIONS_THEN_PATHS.has(subcommand) && !invocation.args.includes('--')) {
    const firstPath = await firstPathArgument(invocation.args, invocation.cwd, context);
    if (firstPath !== -1) invocation.args.splice(firstPath, 0, '--');
  }
  return invocation;
}

/** The result as real git would give it for `invocation` (see GitInvocation's quiet and exitCodeFromDiff). */
export function shapeResult(result: GitResult, invocation: GitInvocation): GitResult {
  if (result.exitCode !== 0) return result;
  const differences = result.stdout !== '';
  return {
    stdout: invocation.quiet ? '' : result.stdout,
    stderr: invocation.quiet ? '' : result.stderr,
    exitCode: invocation.exitCodeFromDiff && differences ? 1 : 0,
  };
}

/** Removes each of `names` from `args` before any `--`; whether one was there. */
function takeOptions(args: string[], names: readonly string[]): boolean {
  const end = args.includes('--') ? args.indexOf('--') : args.length;
  let found = false;
  for (let i = end - 1; i >= 1; i--) {
    if (!names.includes(args[i])) continue;
    args.splice(i, 1);
    found = true;
  }
  return found;
}

// Short options run together (`git commit -qam "msg"`): the q is taken out when it comes before any letter whose
// value follows it (`-mquick` is the message "quick").
const VALUE_LETTERS = /[mFcCtbBsX]/;
function takeQuietFromClusters(args: string[]): boolean {
  const end = args.includes('--') ? args.indexOf('--') : args.length;
  let found = false;
  for (let i = 1; i < end; i++) {
    const arg = args[i];
    if (!/^-[a-zA-Z]{2,}$/.test(arg)) continue;
    const valueAt = arg.search(VALUE_LETTERS);
    const q = arg.indexOf('q');
    if (q === -1 || (valueAt !== -1 && valueAt < q)) continue;
    args[i] = arg.slice(0, q) + arg.slice(q + 1);
    found = true;
  }
  return found;
}

function applyConfig(setting: string, env: Record<string, string>): string | undefined {
  const equals = setting.indexOf('=');
  const key = (equals === -1 ? setting : setting.slice(0, equals)).toLowerCase();
  const value = equals === -1 ? 'true' : setting.slice(equals + 1);
  if (IGNORED_CONFIG.test(key)) return undefined;
  const variables = IDENTITY_CONFIG[key];
  if (!variables) return `fatal: git -c ${key}=… is not supported by the embedded runtime's git; set it with \`git config ${key} <value>\` instead.\n`;
  for (const variable of variables) env[variable] = value;
  return undefined;
}

// Like git: an argument that is not a revision but names an existing file or folder starts the paths.
async function firstPathArgument(args: readonly string[], cwd: string, context: ArgumentContext): Promise<number> {
  for (let i = 1; i < args.length; i++) {
    const arg = args[i];
    if (arg.startsWith('-') || arg.includes(':')) continue; // options, and <revision>:<path>
    if (!(await context.exists(resolvePath(cwd, arg)))) continue;
    if (await context.isRevision(arg, cwd)) continue;
    return i;
  }
  return -1;
}
