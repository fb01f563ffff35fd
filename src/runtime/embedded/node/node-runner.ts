// What `node ARGS` does in the embedded runtime: parse the command line, run the program in a warm engine worker
// against the shell's file system, and answer as node would (stdout, stderr, exit code). `node --test` runs each
// test file as its own process and prints one TAP report with Node's summary lines.

import { defineCommand, type ByteString, type Command, type ExecResult, type IFileSystem, type ResolvedCommandContext } from 'just-bash';
import type { EngineEntry, EngineJob, TestCounts } from './engine/protocol';
import { EnginePool, type RunAround, type RunResult } from './engine/pool';
import type { NodeEngineChoice, NodeEngineName } from './engine-choice';
import type { NodeLauncher } from './subprocess/child-processes';
import { parseNodeArgs, type NodeInvocation } from './node-args';
import { findTestFiles } from './test-files';
import type { ModuleStore } from './module-transform/stored-modules';

export const NODE_VERSION = 'v20.19.0';
const NODE_PATH = '/usr/local/bin/node';
export const DEFAULT_MEMORY_LIMIT_BYTES = 256 * 1024 * 1024;

const USAGE = `Usage: node [options] [ script.js | script.mjs | script.ts ] [arguments]
       node --test [files or folders...]
       node -e "script" | node -p "expression"

Conch's embedded node runs JavaScript and TypeScript (types stripped) in a sandboxed engine: the browser's
own, in an isolated frame with no storage and no network, where the browser allows it; QuickJS otherwise.
CommonJS and ES modules, fs over the workspace, child processes, and Node's core modules for scripts and tests.
It runs no servers and no native modules (use the WebContainer runtime for those); npm installs packages.
  --engine=quickjs|browser   run on that engine (Conch's own option; quickjs is the fallback)
`;

type Context = Pick<ResolvedCommandContext, 'fs' | 'cwd' | 'env' | 'stdin' | 'signal' | 'exec'> & { exportedEnv?: Record<string, string> };

/** The `node` command and the engine workers behind it (a pool per engine; the chosen one is kept warm). */
export class NodeRunner {
  private readonly quickJs = new EnginePool();
  private browser: { engine: unknown; pool: EnginePool } | undefined;
  private readonly unsubscribe: () => void;
  readonly command: Command = defineCommand('node', (args, ctx) => this.execute(args, ctx));

  constructor(
    private readonly engines: NodeEngineChoice,
    private readonly moduleStore?: ModuleStore,
  ) {
    this.unsubscribe = engines.onChange(() => this.warm());
    this.warm();
  }

  dispose(): void {
    this.unsubscribe();
    this.quickJs.dispose();
    this.browser?.pool.dispose();
  }

  private warm(): void {
    this.poolFor(undefined).pool.warm();
  }

  /** The pool of the engine a run asked for (`wanted`), or of the chosen one; null when the browser engine is asked for and absent. */
  private poolFor(wanted: NodeEngineName | undefined): { pool: EnginePool; engine: NodeEngineName } {
    const engine = this.engines.browser();
    if (wanted === 'quickjs' || !engine) return { pool: this.quickJs, engine: 'quickjs' };
    if (this.browser?.engine !== engine) {
      this.browser?.pool.dispose();
      this.browser = { engine, pool: new EnginePool(engine, undefined, this.moduleStore) };
    }
    return { pool: this.browser.pool, engine: 'browser' };
  }

  /** Runs `node ARGS`; `onOutput` hears the program's output as it prints (a streamed child process). */
  async execute(args: string[], ctx: Context, onOutput?: (fd: 1 | 2, text: string) => void): Promise<ExecResult> {
    const invocation = parseNodeArgs(args);
    if (typeof SharedArrayBuffer !== 'function' && invocation.kind !== 'version' && invocation.kind !== 'help') {
      // The engine blocks on the file system through shared memory, which a page has only when cross-origin isolated.
      return { stdout: '', stderr: 'node: this page is not cross-origin isolated (no SharedArrayBuffer), so the embedded node cannot run. Reload the app from its own address.\n', exitCode: 1 };
    }
    switch (invocation.kind) {
      case 'version':
        return { stdout: `${NODE_VERSION}\n`, stderr: '', exitCode: 0 };
      case 'help':
        return { stdout: USAGE, stderr: '', exitCode: 0 };
      case 'error':
        return { stdout: '', stderr: `${invocation.message}\n`, exitCode: 9 };
      case 'test':
        return this.runTests(invocation, ctx);
      case 'file':
      case 'eval':
      case 'stdin': {
        const chosen = this.chosenPool(invocation.engine);
        if (typeof chosen === 'string') return { stdout: '', stderr: chosen, exitCode: 9 };
        return toExecResult(await chosen.pool.run(this.job(invocation, ctx, chosen.engine), ctx.fs, ctx.signal, this.around(ctx, onOutput)));
      }
      default: {
        const unknown: never = invocation;
        throw new Error(`Unknown invocation ${JSON.stringify(unknown)}`);
      }
    }
  }

  /** What a run's child processes use: the shell, and this runner for `node` children (run directly, streamed). */
  private around(ctx: Context, onOutput?: (fd: 1 | 2, text: string) => void): RunAround {
    const runNode: NodeLauncher = (args, options, output) =>
      this.execute(
        args,
        { fs: ctx.fs, cwd: options.cwd, env: new Map(Object.entries(options.env)), exportedEnv: options.env, stdin: encodeStdin(options.stdin), signal: options.signal, exec: ctx.exec },
        output,
      );
    return { exec: ctx.exec, runNode, onOutput };
  }

  /** The pool for a run, or why `--engine=browser` cannot be honoured. */
  private chosenPool(wanted: NodeEngineName | undefined): { pool: EnginePool; engine: NodeEngineName } | string {
    const chosen = this.poolFor(wanted);
    if (wanted === 'browser' && chosen.engine !== 'browser') return `node: the browser engine is not available here (${this.engines.state().reason}); run without --engine to use QuickJS.\n`;
    return chosen;
  }

  private job(invocation: Extract<NodeInvocation, { kind: 'file' | 'eval' | 'stdin' }>, ctx: Context, engine: NodeEngineName): EngineJob {
    const stdin = decodeStdin(ctx.stdin);
    let entry: EngineEntry;
    let argv: string[];
    if (invocation.kind === 'file') {
      const path = ctx.fs.resolvePath(ctx.cwd, invocation.path);
      entry = { kind: 'file', path };
      argv = [NODE_PATH, path, ...invocation.args];
    } else {
      const code = invocation.kind === 'eval' ? invocation.code : stdin;
      entry = { kind: 'eval', code, print: invocation.kind === 'eval' && invocation.print, module: invocation.module };
      argv = [NODE_PATH, ...invocation.args];
    }
    return {
      entry,
      argv,
      execArgv: invocation.execArgv,
      cwd: ctx.cwd,
      env: environment(ctx),
      stdin: invocation.kind === 'stdin' ? '' : stdin,
      testOnly: false,
      testNumberOffset: 0,
      memoryLimitBytes: memoryLimit(invocation.memoryMb),
      modules: engine === 'browser' ? 'transform' : 'native',
    };
  }

  private async runTests(invocation: Extract<NodeInvocation, { kind: 'test' }>, ctx: Context): Promise<ExecResult> {
    const started = Date.now();
    const files = await testFilesFor(invocation.patterns, ctx.fs, ctx.cwd);
    if (typeof files === 'string') return { stdout: '', stderr: files, exitCode: 1 };
    const chosen = this.chosenPool(invocation.engine);
    if (typeof chosen === 'string') return { stdout: '', stderr: chosen, exitCode: 9 };
    const totals: TestCounts = { tests: 0, suites: 0, pass: 0, fail: 0, cancelled: 0, skipped: 0, todo: 0, topLevel: 0 };
    const out: string[] = ['TAP version 13\n'];
    for (const file of files) {
      const result = await chosen.pool.run(
        {
          entry: { kind: 'test-file', path: file },
          argv: [NODE_PATH, file],
          execArgv: invocation.execArgv,
          cwd: ctx.cwd,
          env: environment(ctx),
          stdin: '',
          testOnly: invocation.only,
          testNumberOffset: totals.topLevel,
          memoryLimitBytes: memoryLimit(invocation.memoryMb),
          modules: chosen.engine === 'browser' ? 'transform' : 'native',
        },
        ctx.fs,
        ctx.signal,
        this.around(ctx),
      );
      out.push(result.stdout);
      if (result.stderr) out.push(result.stderr.replace(/\n$/, '').split('\n').map((line) => `# ${line}\n`).join(''));
      if (result.stopped) return { stdout: out.join(''), stderr: '', exitCode: 130 };
      const counts = result.tests;
      const fileFailed = result.exitCode !== 0 && (counts === undefined || counts.fail === 0);
      if (counts) addCounts(totals, counts);
      if (fileFailed || !counts || counts.tests + counts.suites === 0) {
        // Node reports a file that ran no tests, or that failed outside them, as a test of its own.
        totals.topLevel++;
        totals.tests++;
        if (fileFailed) totals.fail++;
        else totals.pass++;
        out.push(`# Subtest: ${file}\n`);
        out.push(fileFailed ? `not ok ${totals.topLevel} - ${file}\n` : `ok ${totals.topLevel} - ${file}\n`);
        out.push(fileFailed
          ? `  ---\n  duration_ms: 0\n  failureType: 'testCodeFailure'\n  exitCode: ${result.exitCode}\n  error: 'test failed'\n  code: 'ERR_TEST_FAILURE'\n  ...\n`
          : `  ---\n  duration_ms: 0\n  ...\n`);
      }
    }
    out.push(`1..${totals.topLevel}\n`);
    for (const key of ['tests', 'suites', 'pass', 'fail', 'cancelled', 'skipped', 'todo'] as const) out.push(`# ${key} ${totals[key]}\n`);
    out.push(`# duration_ms ${Date.now() - started}\n`);
    return { stdout: out.join(''), stderr: '', exitCode: totals.fail > 0 || totals.cancelled > 0 ? 1 : 0 };
  }
}

/** The engine's memory cap: --max-old-space-size when given, else the default. */
function memoryLimit(megabytes: number | undefined): number {
  return megabytes === undefined ? DEFAULT_MEMORY_LIMIT_BYTES : Math.round(megabytes * 1024 * 1024);
}

function addCounts(totals: TestCounts, counts: TestCounts): void {
  for (const key of Object.keys(totals) as (keyof TestCounts)[]) totals[key] += counts[key];
}

/** The files for `node --test PATTERNS`: named files as given, folders searched; none given: the cwd. */
async function testFilesFor(patterns: string[], fs: IFileSystem, cwd: string): Promise<string[] | string> {
  if (patterns.length === 0) return findTestFiles(fs, cwd);
  const files: string[] = [];
  for (const pattern of patterns) {
    const path = fs.resolvePath(cwd, pattern);
    const info = await fs.stat(path).catch(() => undefined);
    if (!info) return `Could not find '${path}'\n`;
    if (info.isDirectory) files.push(...(await findTestFiles(fs, path)));
    else files.push(path);
  }
  return files;
}

/**
 * The command's stdin as text. just-bash keeps it as a latin1-shaped byte string (one char per byte); its browser
 * build does not export the decoder, so the bytes are decoded here.
 */
function decodeStdin(stdin: ByteString): string {
  const latin1 = stdin as unknown as string;
  const bytes = new Uint8Array(latin1.length);
  for (let i = 0; i < latin1.length; i++) bytes[i] = latin1.charCodeAt(i);
  return new TextDecoder().decode(bytes);
}

/** Text as the byte string just-bash gives a command as stdin (UTF-8, one char per byte). */
function encodeStdin(text: string): ByteString {
  let latin1 = '';
  for (const byte of new TextEncoder().encode(text)) latin1 += String.fromCharCode(byte);
  return latin1 as unknown as ByteString;
}

function environment(ctx: Context): Record<string, string> {
  return ctx.exportedEnv ?? Object.fromEntries(ctx.env);
}

function toExecResult(result: RunResult): ExecResult {
  return { stdout: result.stdout, stderr: result.stderr, exitCode: result.exitCode };
}
