// The guest's entry: builds Node's globals and core modules for one process, runs the job's entry, and gives the
// engine its hooks (module loading, timers, beforeExit, exit, fatal errors). Bundled with its npm packages into one
// script that the engine evaluates in a fresh QuickJS context per `node` process.

import type { EngineJob } from '../engine/protocol';
import type { GuestHooks } from './host-api';
import { host } from './host';
import { Builtins } from './modules/builtins';
import { createChildProcess } from './child-process/child-process';
import { createConsole } from './globals/console';
import { createCrypto } from './crypto';
import { createFs } from './fs/fs';
import { inspect, stackOf } from './inspect';
import { defineLazy, once } from './modules/lazy';
import { CJS_WRAPPER_HEAD, ModuleSystem } from './modules/modules';
import { TransformedModules } from './modules/transformed-modules';
import { nodeError } from './node-error';
import { createOs } from './os';
import { createV8 } from './builtins/v8';
import { bufferModule, eventsModule, inspectModule, pathModule } from './modules/packages';
import { createProcess, finishProcess, NODE_VERSION } from './process';
import { createTestModule } from './test/test-runner';
import { nextDelay, runDue, setTimerErrorHandler, timers } from './globals/timers';
import { installWebGlobals } from './globals/web';
import { installFunctionImport } from './globals/function-import';
import { installStackTraceApi } from './globals/stack-trace';
import { defineGlobals } from './globals/define-globals';
import { listedKind } from './modules/package-listings';

const global = globalThis as unknown as Record<string, unknown>;

// Nearly every process needs these (process is an EventEmitter, fs and module loading use path, console.log of an
// object uses inspect); they compile while the engine prepares the process, before a job arrives. (util reads
// process.env as it loads, so it waits.)
eventsModule();
pathModule();
inspectModule();

function start(job: EngineJob): void {
  let cwd = job.cwd;
  const stdinText = job.stdin;
  const fsModule = once(() => createFs({ cwd: () => cwd, stdin: () => stdinText }));
  const process = createProcess(job, {
    get: () => cwd,
    set: (path) => {
      const target = pathModule().resolve(cwd, path);
      const stat = (fsModule().statSync as (p: string, o: object) => { isDirectory(): boolean } | undefined)(target, { throwIfNoEntry: false });
      if (!stat?.isDirectory()) throw Object.assign(new Error(`ENOENT: no such file or directory, chdir ${cwd} -> '${path}'`), { code: 'ENOENT', syscall: 'chdir' });
      cwd = target;
    },
  });
  const consoleObject = createConsole();
  const tests = createTestModule({
    write: (text) => host.write(1, text),
    fileMode: job.entry.kind === 'test-file',
    numberOffset: job.testNumberOffset,
    testOnly: job.testOnly,
    reportCounts: (counts) => host.reportTests(JSON.stringify(counts)),
    setFailed: () => {
      process.exitCode = 1;
    },
    now: () => host.now(),
  });

  const resolverFs = {
    kind: (path: string): 'file' | 'dir' | undefined => {
      const listed = listedKind(path, (folder) => {
        try {
          return JSON.parse(host.fs('readdir', JSON.stringify([folder])) as string) as { name: string; type: string }[];
        } catch {
          return null;
        }
      });
      if (listed !== undefined) return listed ?? undefined;
      try {
        const stat = JSON.parse(host.fs('stat', JSON.stringify([path])) as string) as { type: string };
        return stat.type === 'dir' ? 'dir' : 'file';
      } catch {
        return undefined;
      }
    },
    readText: (path: string) => host.decodeUtf8(host.fs('readFile', JSON.stringify([path])) as ArrayBuffer),
  };
  let modules: ModuleSystem;
  const builtins: Builtins = new Builtins({
    fs: fsModule,
    process: () => process,
    os: () => createOs(process.env as Record<string, string>),
    crypto: createCrypto,
    test: () => tests.module,
    console: () => consoleObject,
    childProcess: () =>
      createChildProcess({ cwd: () => cwd, env: () => process.env as Record<string, unknown>, stdin: () => stdinText, isDirectory: (path) => resolverFs.kind(path) === 'dir', execPath: job.argv[0] }),
    module: (): Record<string, unknown> => ({
      createRequire: (filename: unknown) => modules.createRequire(String(filename).replace(/^file:\/\//, '')),
      builtinModules: builtins.names(),
      isBuiltin: (name: string) => builtins.has(name),
      Module: { _cache: modules.cache },
    }),
    v8: () => createV8(() => host.memoryUsage(), job.memoryLimitBytes),
  });
  modules = new ModuleSystem(builtins, resolverFs, () => cwd);
  // 'transform': ES modules run as CommonJS bodies the host made (an engine whose eval has no module loader).
  const transformed = job.modules === 'transform' ? new TransformedModules(modules, builtins) : undefined;
  hooks.resolveModule = (base, request) => modules.resolveModule(base, request);
  hooks.loadModule = (name) => modules.loadModule(name);
  if (transformed) {
    // As on an engine with no loader hook: an import() that escaped the transform fails here too, not only there.
    hooks.resolveModule = (base, request) => {
      throw new Error(`import('${request}') from ${base} reached the engine's module loader, which modules 'transform' does not use`);
    };
  }
  (globalThis as unknown as Record<symbol, unknown>)[Symbol.for('conch.resolve')] = (base: string, request: string) => modules.resolveModule(base, request);

  installStackTraceApi();
  installWebGlobals(global);
  installFunctionImport(modules.rewriteCommonJs, `${cwd}/[eval]`);
  defineGlobals(global, {
    global: globalThis,
    process,
    console: consoleObject,
    ...timers,
    queueMicrotask: (callback: () => void) => {
      if (typeof callback !== 'function') throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "callback" argument must be of type function.');
      void Promise.resolve().then(() => {
        try {
          callback();
        } catch (error) {
          uncaught(error);
        }
      });
    },
  });
  defineLazy(global, 'Buffer', () => bufferModule().Buffer);
  (global.crypto as Record<string, unknown>).subtle = undefined;

  hooks.beforeExit = () => {
    if (tests.finish()) return true;
    process.emit('beforeExit', process.exitCode ?? 0);
    return nextDelay() >= 0;
  };
  hooks.exit = () => {
    const code = finishProcess(process);
    // Node's exit code for a main module whose top-level await never settled ('exit' listeners still hear 0).
    return transformed?.mainPending && process.exitCode === undefined ? 13 : code;
  };

  const uncaught = (error: unknown): void => {
    if (process.listenerCount('uncaughtException') > 0) {
      process.emit('uncaughtException', error, 'uncaughtException');
      return;
    }
    host.write(2, describeUncaught(error, resolverFs.readText, job.memoryLimitBytes));
    process.exitCode = isOutOfMemory(error) ? 134 : 1;
    host.exit(process.exitCode);
  };
  setTimerErrorHandler(uncaught);
  hooks.reportFatal = (error: unknown) => {
    host.write(2, describeUncaught(error, resolverFs.readText, job.memoryLimitBytes));
    return isOutOfMemory(error) ? 134 : 1;
  };

  const runModule = (name: string) => {
    if (transformed) return transformed.runMain(name, uncaught);
    // import() from a one-line script: the module and its graph load through resolveModule/loadModule.
    const load = host.compile('(name) => import(name)', 'node:internal/import') as (name: string) => Promise<unknown>;
    load(name).then(undefined, uncaught);
  };
  const entry = job.entry;
  try {
    switch (entry.kind) {
      case 'file':
      case 'test-file': {
        // As Node resolves the main script: `node test` runs test.js, or test/index.js.
        const filename = resolverFs.kind(entry.path) === 'file' ? entry.path : (modules.resolver.findMain(entry.path) ?? entry.path);
        if (resolverFs.kind(filename) !== 'file') {
          const error = nodeError(Error, 'MODULE_NOT_FOUND', `Cannot find module '${filename}'`) as unknown as Error & Record<string, unknown>;
          error.requireStack = [];
          throw error;
        }
        if (modules.resolver.formatOf(filename) === 'module') runModule(`file://${filename}`);
        else modules.runMain(filename);
        return;
      }
      case 'eval': {
        const name = `${cwd}/[eval]`;
        if (entry.module) {
          const moduleName = `file://${cwd}/[eval1]`;
          modules.addInlineModule(moduleName, entry.code);
          runModule(moduleName);
          return;
        }
        defineGlobals(global, { require: modules.createRequire(name), module: { exports: {}, id: '[eval]' }, exports: {}, __filename: '[eval]', __dirname: '.' });
        const code = transformed ? transformed.prepareScript(entry.code, name, global) : entry.code;
        const result = host.compile(code, '[eval]');
        if (entry.print) host.write(1, `${typeof result === 'string' ? result : inspect(result)}\n`);
        return;
      }
      default: {
        const unknown: never = entry;
        throw new Error(`Unknown entry ${JSON.stringify(unknown)}`);
      }
    }
  } catch (error) {
    uncaught(error);
  }
}

function isOutOfMemory(error: unknown): boolean {
  return error instanceof Error && error.name === 'InternalError' && error.message === 'out of memory';
}

/** What Node prints for an uncaught exception: the throwing line with a caret, the stack, and Node's version. */
function describeUncaught(error: unknown, readText: (path: string) => string, memoryLimitBytes: number): string {
  if (isOutOfMemory(error)) {
    return (
      'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n' +
      `node: the program used more than the embedded runtime's memory cap (${Math.round(memoryLimitBytes / 2 ** 20)} MB) and was stopped.\n`
    );
  }
  if (!(error instanceof Error)) return `Uncaught ${inspect(error)}\n\nNode.js ${NODE_VERSION}\n`;
  const stack = stackOf(error);
  let context = '';
  const frame = /\(?((?:file:\/\/)?\/[^():\n]+):(\d+):(\d+)\)?/.exec(stack.split('\n').slice(1).join('\n'));
  if (frame) {
    const path = decodeURIComponent(frame[1].replace(/^file:\/\//, ''));
    try {
      const line = readText(path).split('\n')[Number(frame[2]) - 1];
      // On a CommonJS file's first line the column counts Node's wrapper function too.
      let column = Number(frame[3]) - 1;
      if (column > (line?.length ?? 0)) column -= CJS_WRAPPER_HEAD.length;
      // QuickJS points at the Error's construction; Node at the throw statement when there is one.
      const throwAt = line?.lastIndexOf('throw', column) ?? -1;
      if (throwAt >= 0) column = throwAt;
      if (line !== undefined) context = `${frame[1]}:${frame[2]}\n${line}\n${' '.repeat(Math.max(0, column))}^\n\n`;
    } catch {
      // the frame names no readable file: print the stack alone
    }
  }
  return `${context}${inspect(error)}\n\nNode.js ${NODE_VERSION}\n`;
}

/** The hooks as the guest implements them; `__conchGuest` below is their string-typed face for the engine. */
type Hooks = {
  start(jobJson: string): void;
  resolveModule(base: string, request: string): string;
  loadModule(name: string): string;
  beforeExit(): boolean;
  exit(): number;
  reportFatal(error: unknown): number;
};

const hooks: Hooks = {
  start: (jobJson) => start(JSON.parse(jobJson) as EngineJob),
  resolveModule: () => '',
  loadModule: () => '',
  beforeExit: () => false,
  exit: () => 0,
  reportFatal: () => 1,
};

const guest: GuestHooks = {
  nextTimer: () => String(nextDelay()),
  runTimers: () => runDue(),
  start: (jobJson: string) => hooks.start(jobJson),
  resolveModule: (base: string, request: string) => hooks.resolveModule(base, request),
  loadModule: (name: string) => hooks.loadModule(name),
  beforeExit: () => String(hooks.beforeExit()),
  exit: () => String(hooks.exit()),
  reportFatal: (error: unknown) => hooks.reportFatal(error),
};
(globalThis as unknown as { __conchGuest: GuestHooks }).__conchGuest = guest;
