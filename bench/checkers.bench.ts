// The tools an agent runs to check its work (issue 25, part 4): `npx tsc --noEmit`, `npx prettier --check .` and
// `npx eslint .` on a generated 50-file TypeScript project (bench/lib/checkers-project.ts), in the embedded runtime and
// in real Node in the same run, each with its time, the ratio, and whether the two outputs agree (exit code and the
// findings: tsc's diagnostics, the files prettier flags, eslint's problems), on both of node's engines (issue 26: the
// browser engine, here in its Node stand-in, and QuickJS). Printed, never asserted.
//
// The packages come from registry.npmjs.org, cached on disk in node_modules/.cache/conch-checkers (outside git): the
// embedded npm installs them through a PackageCache over that folder, real npm into a temporary folder, same
// versions. The runtime is loaded through Vite's SSR loader, as the unit tests load it (the guest is a virtual module).
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'vite';
import type { createEmbeddedRuntime as CreateEmbeddedRuntime } from '../src/runtime/embedded';
import type * as EngineChoice from '../src/runtime/embedded/node/engine-choice';
import type * as StandIn from '../src/runtime/embedded/node/sandbox/node-stand-in';
import { DEFAULT_WORKDIR } from '../src/runtime/paths';
import type { PackageCache } from '../src/runtime/embedded/npm/environment';
import { SOURCE_FILES } from './lib/checkers-project';
import { agreement, CACHE_DIR, projectFiles, realNodeProject, runReal, NODE_RUNS, TOOL_TIMEOUT_MS, TOOLS, VERSIONS, type Run } from './lib/checkers-tools';

/**
 * npm's cache with the transformed modules node keeps in it (under node-module-transform/) held in `memory` apart:
 * the registry's bytes stay on disk between bench runs, while each bench run's first check starts with none stored.
 */
function withModulesInMemory(cache: PackageCache, memory: Map<string, Uint8Array>): PackageCache {
  const isModule = (key: string) => key.startsWith('node-module-transform/');
  return {
    get: async (key) => (isModule(key) ? memory.get(key) : cache.get(key)),
    put: async (key, data) => void (isModule(key) ? memory.set(key, data) : await cache.put(key, data)),
  };
}

/** Registry bytes kept on disk between bench runs, one file per key. */
function diskPackageCache(dir: string): PackageCache {
  mkdirSync(dir, { recursive: true });
  const file = (key: string) => join(dir, createHash('sha256').update(key).digest('hex'));
  return {
    get: async (key) => {
      try {
        return new Uint8Array(readFileSync(file(key)));
      } catch {
        return undefined;
      }
    },
    put: async (key, data) => writeFileSync(file(key), data),
  };
}

const files = projectFiles();
console.log(`project: ${SOURCE_FILES} TypeScript files; ${Object.entries(VERSIONS).map(([name, version]) => `${name}@${version}`).join(', ')}`);
const realDir = realNodeProject(files);
const vite = await createServer({ server: { middlewareMode: true, ws: false }, appType: 'custom', logLevel: 'error' });
try {
  const { createEmbeddedRuntime } = (await vite.ssrLoadModule('/src/runtime/embedded/index.ts')) as { createEmbeddedRuntime: typeof CreateEmbeddedRuntime };
  const { NodeEngineChoice } = (await vite.ssrLoadModule('/src/runtime/embedded/node/engine-choice.ts')) as typeof EngineChoice;
  const { createNodeSandboxEngine } = (await vite.ssrLoadModule('/src/runtime/embedded/node/sandbox/node-stand-in.ts')) as typeof StandIn;
  // Both of node's engines on the same installed project: the browser engine (in its Node stand-in: the same relay,
  // engine and guest, with Node's V8) and QuickJS, switched between the runs.
  const nodeEngines = new NodeEngineChoice();
  const browserEngine = createNodeSandboxEngine();
  const storedModules = new Map<string, Uint8Array>();
  const npm = { registry: () => 'https://registry.npmjs.org/', cache: withModulesInMemory(diskPackageCache(CACHE_DIR), storedModules) };
  const installed = async () => {
    const runtime = createEmbeddedRuntime({ files, nodeEngines, npm });
    const exec = async (command: string): Promise<Run> => {
      const started = performance.now();
      const result = await runtime.exec(command, { timeoutMs: TOOL_TIMEOUT_MS, env: { NO_COLOR: '1', FORCE_COLOR: '0' } });
      return { ms: performance.now() - started, exitCode: result.exitCode, output: result.output.split(DEFAULT_WORKDIR).join('<project>') };
    };
    const install = await exec('npm install');
    if (install.exitCode !== 0) throw new Error(`embedded npm install failed:\n${install.output}`);
    return { runtime, exec, install };
  };
  const { runtime, exec, install } = await installed();
  console.log(`embedded npm install: ${install.ms.toFixed(0)} ms (${install.output.trim().split('\n').pop()})`);
  const only = process.env.CHECKERS_ONLY?.split(',');
  const tools = TOOLS.filter((t) => !only || only.includes(t.name));
  for (const tool of tools) {
    const real = runReal(realDir, tool);
    console.log(`\n${tool.command}: Node ${real.ms.toFixed(0)} ms (median of ${NODE_RUNS})`);
    // The browser engine twice: its first run also transforms the ES modules and `import()` calls it meets (cached
    // by content for the runtime's life, so the second run is what every later check costs).
    for (const [engine, label] of [['browser', 'browser'], ['browser', 'browser, 2nd'], ['quickjs', 'quickjs']] as const) {
      nodeEngines.set(engine === 'browser' ? browserEngine : null, engine);
      const embedded = await exec(tool.command);
      console.log(`  ${label.padEnd(13)} ${embedded.ms.toFixed(0).padStart(8)} ms   ratio ${(embedded.ms / real.ms).toFixed(1)}x${engine === 'browser' ? ' (target <= 2.5x)' : ''}   ${agreement(tool, embedded, real)}`);
      if (process.env.CHECKERS_VERBOSE || tool.findings(embedded.output).length !== tool.findings(real.output).length) {
        console.log(`  ${engine} output:\n${embedded.output.slice(0, 4000).replace(/^/gm, '    | ')}`);
        console.log(`  Node output:\n${real.output.slice(0, 4000).replace(/^/gm, '    | ')}`);
      }
    }
  }
  await runtime.dispose();
  // A page reload: a new runtime, whose first check finds the modules that needed a full parse in npm's cache.
  nodeEngines.set(browserEngine, 'browser');
  const reloaded = await installed();
  console.log(`\nafter a reload (a new runtime; ${storedModules.size} transformed modules stored in npm's cache):`);
  for (const tool of tools) {
    const run = await reloaded.exec(tool.command);
    console.log(`  ${tool.command.padEnd(24)} ${run.ms.toFixed(0).padStart(8)} ms   first run on the browser engine`);
  }
  await reloaded.runtime.dispose();
} finally {
  await vite.close();
  rmSync(realDir, { recursive: true, force: true });
}
process.exit(0);
