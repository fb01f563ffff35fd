// node's command line, as far as the embedded runtime honours it: what to run, the options that change how, and the
// arguments the program sees in process.argv.

/**
 * What every run takes from the options: `memoryMb` from --max-old-space-size (the QuickJS engine's memory cap), and
 * `engine` from --engine (Conch's own option: quickjs forces the fallback engine, browser insists on the other).
 */
type RunOptions = { execArgv: string[]; memoryMb?: number; engine?: 'browser' | 'quickjs' };

export type NodeInvocation =
  | { kind: 'version' }
  | { kind: 'help' }
  | ({ kind: 'file'; path: string; args: string[]; module: boolean } & RunOptions)
  | ({ kind: 'eval'; code: string; print: boolean; args: string[]; module: boolean } & RunOptions)
  | ({ kind: 'stdin'; args: string[]; module: boolean } & RunOptions)
  | ({ kind: 'test'; patterns: string[]; only: boolean } & RunOptions)
  | { kind: 'error'; message: string };

/** Options that take no effect here but are harmless to accept (real projects' scripts pass them). */
const IGNORED_FLAGS = new Set([
  '--enable-source-maps',
  '--no-warnings',
  '--no-deprecation',
  '--experimental-vm-modules',
  '--experimental-strip-types',
  '--experimental-transform-types',
  '--experimental-default-type=commonjs',
  '--trace-uncaught',
  '--trace-warnings',
  '--preserve-symlinks',
  '--no-experimental-fetch',
]);

/** Parses node's arguments (those after `node`). */
export function parseNodeArgs(args: string[]): NodeInvocation {
  const execArgv: string[] = [];
  let evalCode: string | undefined;
  let print = false;
  let test = false;
  let only = false;
  let module = false;
  let memoryMb: number | undefined;
  let engine: RunOptions['engine'];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const [flag, inline] = splitFlag(arg);
    if (arg === '--') return finish(args.slice(i + 1), true);
    if (!arg.startsWith('-') || arg === '-') return finish(args.slice(i), false);
    if (flag === '-v' || flag === '--version') return { kind: 'version' };
    if (flag === '-h' || flag === '--help') return { kind: 'help' };
    if (flag === '-e' || flag === '--eval' || flag === '-p' || flag === '--print' || flag === '-pe') {
      const code = inline ?? args[++i];
      if (code === undefined) return { kind: 'error', message: `node: ${flag} requires an argument` };
      evalCode = code;
      print ||= flag.startsWith('-p') || flag === '--print';
      execArgv.push(flag, code);
      continue;
    }
    if (flag === '--engine') {
      const value = inline ?? args[++i];
      if (value !== 'browser' && value !== 'quickjs') return { kind: 'error', message: 'node: --engine must be "browser" or "quickjs"' };
      engine = value;
      continue; // Conch's own: not in process.execArgv
    }
    execArgv.push(arg);
    if (flag === '--test') test = true;
    else if (flag === '--test-only') only = true;
    else if (flag === '--input-type') {
      const value = inline ?? args[++i];
      if (value !== 'module' && value !== 'commonjs') return { kind: 'error', message: `node: --input-type must be "module" or "commonjs"` };
      module = value === 'module';
    } else if (flag === '--max-old-space-size') {
      const value = Number(inline ?? args[++i]);
      if (!(value > 0)) return { kind: 'error', message: `node: --max-old-space-size needs a size in megabytes` };
      memoryMb = value;
      if (inline === undefined) execArgv.push(String(value));
    } else if (flag === '--test-reporter' || flag === '--test-name-pattern' || flag === '--stack-size') {
      if (inline === undefined) execArgv.push(args[++i] ?? '');
    } else if (!IGNORED_FLAGS.has(flag) && !flag.startsWith('--experimental-') && !flag.startsWith('--no-experimental-')) {
      return { kind: 'error', message: `node: bad option: ${arg}\n(the embedded runtime runs scripts, tests and -e/-p; use the WebContainer runtime for other options)` };
    }
  }
  return finish([], false);

  function finish(rest: string[], afterDashes: boolean): NodeInvocation {
    if (evalCode !== undefined) return { kind: 'eval', code: evalCode, print, args: rest, execArgv, memoryMb, engine, module };
    if (test) return { kind: 'test', patterns: rest, execArgv, memoryMb, engine, only };
    if (rest.length === 0 || (rest[0] === '-' && !afterDashes)) return { kind: 'stdin', args: rest.slice(1), execArgv, memoryMb, engine, module };
    return { kind: 'file', path: rest[0], args: rest.slice(1), execArgv, memoryMb, engine, module };
  }
}

function splitFlag(arg: string): [string, string | undefined] {
  const eq = arg.indexOf('=');
  return arg.startsWith('--') && eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, undefined];
}
