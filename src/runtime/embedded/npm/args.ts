// The npm command line the embedded npm understands, parsed into one invocation. Options npm accepts that make no
// difference here (audit, fund, progress, log levels) are accepted quietly; others are named in a warning.

import type { SaveGroup } from './package-specs';

export type NpmInvocation =
  | { kind: 'install'; specs: string[]; group: SaveGroup; exact: boolean; omitDev: boolean; skipPeers: boolean; offline: boolean; save: boolean; registry?: string; warnings: string[] }
  | { kind: 'ci'; omitDev: boolean; skipPeers: boolean; offline: boolean; registry?: string; warnings: string[] }
  | { kind: 'uninstall'; names: string[]; save: boolean; registry?: string; warnings: string[] }
  | { kind: 'run'; script: string | undefined; args: string[]; silent: boolean; ifPresent: boolean; warnings: string[] }
  | { kind: 'exec'; args: string[]; warnings: string[] }
  | { kind: 'config-get'; key: string }
  | { kind: 'version' }
  | { kind: 'help' }
  | { kind: 'unsupported'; command: string };

const INSTALL = new Set(['install', 'i', 'add', 'in', 'ins', 'inst', 'insta', 'instal', 'isnt', 'isntal', 'isntall']);
const UNINSTALL = new Set(['uninstall', 'un', 'unlink', 'remove', 'rm', 'r']);
const RUN = new Set(['run', 'run-script', 'rum', 'urn']);
/** Options that change nothing in the embedded npm. */
const QUIET_OPTIONS = /^--(no-)?(audit|fund|progress|update-notifier|package-lock|color|ignore-scripts|foreground-scripts|prefer-online|prefer-offline|force|yes|strict-peer-deps|engine-strict|bin-links|loglevel(=.*)?|no-optional)$|^-(y|q|d|dd|ddd)$|^--(quiet|verbose|no)$/;

/** Parses `npm ARGS`. */
export function parseNpmArgs(argv: string[]): NpmInvocation {
  const [first, ...rest] = argv;
  if (first === undefined || first === 'help' || first === '--help' || first === '-h') return { kind: 'help' };
  if (first === '--version' || first === '-v' || first === 'version' && rest.length === 0) return { kind: 'version' };
  if (INSTALL.has(first)) return installArgs(rest);
  if (first === 'ci' || first === 'clean-install' || first === 'install-clean' || first === 'isntall-clean') {
    const parsed = installArgs(rest);
    return { kind: 'ci', omitDev: parsed.omitDev, skipPeers: parsed.skipPeers, offline: parsed.offline, registry: parsed.registry, warnings: [...parsed.warnings, ...parsed.specs.map((s) => `npm ci takes no package names; ignoring ${s}`)] };
  }
  if (UNINSTALL.has(first)) {
    const parsed = installArgs(rest);
    return { kind: 'uninstall', names: parsed.specs, save: parsed.save, registry: parsed.registry, warnings: parsed.warnings };
  }
  if (RUN.has(first)) return runArgs(rest);
  if (first === 'test' || first === 't' || first === 'tst' || first === 'start' || first === 'stop' || first === 'restart') {
    const script = first === 't' || first === 'tst' ? 'test' : first;
    const parsed = runArgs(rest);
    return { ...parsed, script, args: parsed.script === undefined ? parsed.args : [parsed.script, ...parsed.args] };
  }
  if (first === 'exec' || first === 'x') return { kind: 'exec', args: rest.filter((a) => a !== '--'), warnings: [] };
  if (first === 'config' && (rest[0] === 'get' || rest[0] === 'list' || rest[0] === 'ls')) return { kind: 'config-get', key: rest[1] ?? 'registry' };
  if (first === 'get' && rest.length > 0) return { kind: 'config-get', key: rest[0] };
  return { kind: 'unsupported', command: first };
}

function installArgs(args: string[]): Extract<NpmInvocation, { kind: 'install' }> {
  const out: Extract<NpmInvocation, { kind: 'install' }> = { kind: 'install', specs: [], group: 'dependencies', exact: false, omitDev: false, skipPeers: false, offline: false, save: true, warnings: [] };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '-D' || arg === '--save-dev' || arg === '--dev') out.group = 'devDependencies';
    else if (arg === '-O' || arg === '--save-optional') out.group = 'optionalDependencies';
    else if (arg === '-P' || arg === '--save-prod' || arg === '-S' || arg === '--save') out.group = 'dependencies';
    else if (arg === '-E' || arg === '--save-exact') out.exact = true;
    else if (arg === '--no-save') out.save = false;
    else if (arg === '--omit=dev' || arg === '--production' || arg === '--only=prod' || arg === '--only=production') out.omitDev = true;
    else if (arg === '--omit' && args[i + 1] === 'dev') (out.omitDev = true), i++;
    else if (arg === '--legacy-peer-deps') out.skipPeers = true;
    else if (arg === '--offline') out.offline = true;
    else if (arg.startsWith('--registry=')) out.registry = arg.slice('--registry='.length);
    else if (arg === '--registry' && args[i + 1]) out.registry = args[++i];
    else if (QUIET_OPTIONS.test(arg) || arg === '--silent' || arg === '-s') continue;
    else if (arg.startsWith('-')) out.warnings.push(`npm warn the embedded npm ignores ${arg}`);
    else out.specs.push(arg);
  }
  return out;
}

function runArgs(args: string[]): Extract<NpmInvocation, { kind: 'run' }> {
  let script: string | undefined;
  const passed: string[] = [];
  const warnings: string[] = [];
  let silent = false;
  let ifPresent = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') {
      passed.push(...args.slice(i + 1));
      break;
    }
    if (arg === '--silent' || arg === '-s' || arg === '--loglevel=silent') silent = true;
    else if (arg === '--if-present') ifPresent = true;
    else if (script === undefined && !arg.startsWith('-')) script = arg;
    else if (script !== undefined) passed.push(arg);
    else if (!QUIET_OPTIONS.test(arg)) warnings.push(`npm warn the embedded npm ignores ${arg}`);
  }
  return { kind: 'run', script, args: passed, silent, ifPresent, warnings };
}
