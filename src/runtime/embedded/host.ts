// The worker side of the embedded runtime: answers client.ts's messages with an in-process runtime. A stop
// request reaches a tight loop through a SharedArrayBuffer the shell polls. Wired to the worker's globals by
// worker.ts; tests wire it to an in-memory message channel.

import { createEmbeddedRuntime, type EmbeddedRuntime, type EmbeddedRuntimeFork } from './in-process';
import type { BaselineFile, GitPushAnswer, GitPushRequest, ScannedEntry, StagedImport } from '../types';
import { STOP_SLOTS, type CallRequest, type FromWorker, type NpmHostCall, type ToWorker } from './protocol';
import type { NpmEnvironment } from './npm/environment';
import { unpackBaselineFiles, unpackFiles } from './packed-files';
import { NodeEngineChoice } from './node/engine-choice';

// just-bash's defense-in-depth mode blocks `Atomics` for scripts while they run; the stop-flag check is host code,
// so it keeps the original function, taken before any script starts.
const loadAtomic = Atomics.load.bind(Atomics);

export type PostToPage = (message: FromWorker, transfer?: Transferable[]) => void;

/** A message handler serving one embedded runtime; `post` sends replies to the page. */
export function createEmbeddedHost(post: PostToPage): (message: ToWorker) => Promise<void> {
  // Which engine node runs on: QuickJS until the page hands over a sandbox frame that passed its probe.
  const nodeEngines = new NodeEngineChoice();
  let runtime: EmbeddedRuntime | undefined;
  let stopTable: Int32Array | undefined;
  let stopWatching: (() => void) | undefined;
  const aborts = new Map<number, AbortController>();
  const stages = new Map<number, StagedImport>();
  const forks = new Map<number, EmbeddedRuntimeFork>();
  const baselineRequests = new Map<number, { resolve(files: { path: string; data: Uint8Array }[]): void; reject(error: Error): void }>();
  let nextBaselineRequest = 1;
  const npmRequests = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let nextNpmRequest = 1;
  const pushRequests = new Map<number, (answer: GitPushAnswer) => void>();
  let nextPushRequest = 1;
  /** npm's registry and cache, answered by the page. */
  const pageNpm: NpmEnvironment = {
    registry: async () => String(await askPage({ op: 'registry' })),
    cache: {
      get: async (key) => (await askPage({ op: 'cache-get', key })) as Uint8Array | undefined,
      put: async (key, data) => void (await askPage({ op: 'cache-put', key, data })),
    },
  };

  return handle;

  async function handle(message: ToWorker): Promise<void> {
    switch (message.type) {
      case 'init':
        try {
          runtime = await createEmbeddedRuntime({
            ...message.options,
            nodeEngines,
            npm: message.npmHost ? pageNpm : undefined,
            gitPush: message.gitPushHost ? askPageToPush : undefined,
          });
          stopTable = message.stopTable ? new Int32Array(message.stopTable) : undefined;
          post({ type: 'ready', workdir: runtime.workdir });
        } catch (error) {
          post({ type: 'init-failed', message: errorText(error) });
        }
        return;
      case 'call':
        return answer(message);
      case 'exec':
        return runExec(message);
      case 'abort':
        aborts.get(message.id)?.abort();
        return;
      case 'import-files':
        return importFiles(message);
      case 'fork':
      case 'fork-changes':
      case 'fork-dispose':
        return answerFork(message);
      case 'stage-begin':
        if (runtime) stages.set(message.stage, runtime.beginImport()); // without one, its commit reports the failure
        return;
      case 'stage-add':
        stages.get(message.stage)?.add(unpackFiles(message));
        return;
      case 'stage-commit':
        return commitStage(message);
      case 'apply-changes':
        return applyChanges(message);
      case 'copy-entries':
        return copy(message);
      case 'stage-discard':
        stages.get(message.stage)?.discard();
        stages.delete(message.stage);
        return;
      case 'watch':
        stopWatching?.();
        stopWatching = message.enabled ? runtime?.watch((paths) => post({ type: 'changes', paths })) : undefined;
        return;
      case 'node-sandbox':
        if (!message.port) nodeEngines.set(null, message.reason);
        else nodeEngines.set((await import('./node/sandbox/connect')).connectSandboxEngine(message.port), message.reason);
        return;
      case 'baseline': {
        const { name, remoteUrl } = message;
        await runtime?.setBaseline(name === null ? null : { name, files: askForBaselineFiles, ...(remoteUrl ? { remoteUrl } : {}) });
        return;
      }
      case 'baseline-files':
        baselineRequests.get(message.request)?.resolve(unpackBaselineFiles(message));
        baselineRequests.delete(message.request);
        return;
      case 'baseline-files-failed':
        baselineRequests.get(message.request)?.reject(new Error(message.message));
        baselineRequests.delete(message.request);
        return;
      case 'git-push-reply':
        pushRequests.get(message.request)?.(message.answer);
        pushRequests.delete(message.request);
        return;
      case 'npm-host-reply':
        npmRequests.get(message.request)?.resolve(message.value);
        npmRequests.delete(message.request);
        return;
      case 'npm-host-failed':
        npmRequests.get(message.request)?.reject(new Error(message.message));
        npmRequests.delete(message.request);
        return;
      default: {
        const unknown: never = message;
        throw new Error(`Unknown message ${JSON.stringify(unknown)}`);
      }
    }
  }

  async function answer(request: CallRequest): Promise<void> {
    try {
      const result = await callMethod(request);
      // Only fresh bytes may be transferred: readFile hands back the file system's own bytes, and transferring
      // their buffer would empty the file in the sandbox (the next read or export sees zero bytes). A zip and a
      // scan's file bytes are fresh copies.
      const value = result instanceof Uint8Array && request.method !== 'exportZip' ? result.slice() : result;
      const transfer: Transferable[] = value instanceof Uint8Array ? [value.buffer] : [];
      if (request.method === 'scan') {
        for (const entry of value as ScannedEntry[]) if (entry.kind === 'file' && entry.data) transfer.push(entry.data.buffer);
      }
      post({ type: 'result', id: request.id, value }, transfer);
    } catch (error) {
      post({ type: 'error', id: request.id, message: errorText(error) });
    }
  }

  function callMethod(request: CallRequest): Promise<unknown> {
    const rt = requireRuntime(request.fork);
    switch (request.method) {
      case 'readFile':
        return rt.readFile(...request.args);
      case 'writeFile':
        return rt.writeFile(...request.args);
      case 'readdir':
        return rt.readdir(...request.args);
      case 'stat':
        return rt.stat(...request.args);
      case 'mkdir':
        return rt.mkdir(...request.args);
      case 'rm':
        return rt.rm(...request.args);
      case 'rename':
        return rt.rename(...request.args);
      case 'realpath':
        return rt.realpath(...request.args);
      case 'exportZip':
        return rt.exportZip(...request.args);
      case 'importZip':
        return rt.importZip(...request.args);
      case 'importFiles':
        return rt.importFiles(...request.args);
      case 'search':
        return rt.search(...request.args);
      case 'scan':
        return rt.scan(...request.args);
      case 'flushChanges':
        return rt.flushChanges();
      case 'placeReadOnly':
        return rt.placeReadOnly(...request.args);
      default: {
        const unknown: never = request;
        throw new Error(`Unknown method ${JSON.stringify(unknown)}`);
      }
    }
  }

  async function importFiles(request: Extract<ToWorker, { type: 'import-files' }>): Promise<void> {
    try {
      await requireRuntime().importFiles(unpackFiles(request));
      post({ type: 'result', id: request.id, value: undefined });
    } catch (error) {
      post({ type: 'error', id: request.id, message: errorText(error) });
    }
  }

  async function applyChanges(request: Extract<ToWorker, { type: 'apply-changes' }>): Promise<void> {
    try {
      const { removeFiles, removeFolders, makeFolders } = request;
      await requireRuntime(request.fork).applyChanges({ removeFiles, removeFolders, makeFolders, writeFiles: unpackFiles(request) });
      post({ type: 'result', id: request.id, value: undefined });
    } catch (error) {
      post({ type: 'error', id: request.id, message: errorText(error) });
    }
  }

  async function copy(request: Extract<ToWorker, { type: 'copy-entries' }>): Promise<void> {
    try {
      const entries = await requireRuntime().copyEntries(request.paths);
      post({ type: 'result', id: request.id, value: entries }, entries.flatMap((e) => (e.kind === 'file' ? [e.data.buffer] : [])));
    } catch (error) {
      post({ type: 'error', id: request.id, message: errorText(error) });
    }
  }

  async function commitStage(request: Extract<ToWorker, { type: 'stage-commit' }>): Promise<void> {
    const stage = stages.get(request.stage);
    stages.delete(request.stage);
    try {
      if (!stage) throw new Error('This import was interrupted (the sandbox restarted) or already finished; import the repo again.');
      await stage.commit();
      post({ type: 'result', id: request.id, value: undefined });
    } catch (error) {
      post({ type: 'error', id: request.id, message: errorText(error) });
    }
  }

  async function runExec(request: Extract<ToWorker, { type: 'exec' }>): Promise<void> {
    const controller = new AbortController();
    aborts.set(request.id, controller);
    const table = stopTable;
    const slot = request.id % STOP_SLOTS;
    try {
      const result = await requireRuntime(request.fork).exec(request.command, {
        cwd: request.cwd,
        env: request.env,
        timeoutMs: request.timeoutMs,
        signal: controller.signal,
        interruptRequested: table ? () => loadAtomic(table, slot) === request.id : undefined,
        onOutput: request.stream ? (chunk) => post({ type: 'output', id: request.id, chunk }) : undefined,
      });
      post({ type: 'result', id: request.id, value: result });
    } catch (error) {
      post({ type: 'error', id: request.id, message: errorText(error) });
    } finally {
      aborts.delete(request.id);
    }
  }

  /** The baseline's files, from the page (they are only sent when git first needs them). */
  function askForBaselineFiles(): Promise<BaselineFile[]> {
    const request = nextBaselineRequest++;
    return new Promise((resolve, reject) => {
      baselineRequests.set(request, { resolve, reject });
      post({ type: 'baseline-files-needed', request });
    });
  }

  function askPage(call: NpmHostCall): Promise<unknown> {
    const request = nextNpmRequest++;
    return new Promise((resolve, reject) => {
      npmRequests.set(request, { resolve, reject });
      post({ type: 'npm-host-call', request, call });
    });
  }

  /** git push's way out: the page asks the person and sends; a stopped command withdraws the question. */
  function askPageToPush(push: GitPushRequest, signal?: AbortSignal): Promise<GitPushAnswer> {
    const request = nextPushRequest++;
    return new Promise((resolve) => {
      const onStop = () => post({ type: 'git-push-stopped', request });
      signal?.addEventListener('abort', onStop, { once: true });
      pushRequests.set(request, (answer) => {
        signal?.removeEventListener('abort', onStop);
        resolve(answer);
      });
      post({ type: 'git-push', request, push });
    });
  }

  /** A fork's messages: made (its changes reported with its number), its changes listed (copies), dropped. */
  async function answerFork(request: Extract<ToWorker, { type: 'fork' | 'fork-changes' | 'fork-dispose' }>): Promise<void> {
    try {
      let value: unknown;
      if (request.type === 'fork') {
        const fork = await requireRuntime().fork({ cwd: request.cwd, env: request.env });
        forks.set(request.fork, fork);
        fork.runtime.watch((paths) => post({ type: 'changes', paths, fork: request.fork }));
      } else if (request.type === 'fork-changes') {
        value = await requireFork(request.fork).changes(); // cloned on the way, never transferred: they are the files' own bytes
      } else {
        const fork = forks.get(request.fork);
        forks.delete(request.fork);
        await fork?.dispose();
      }
      post({ type: 'result', id: request.id, value });
    } catch (error) {
      post({ type: 'error', id: request.id, message: errorText(error) });
    }
  }

  /** The live runtime, or the fork numbered `fork`. */
  function requireRuntime(fork?: number): EmbeddedRuntime {
    if (fork !== undefined) return requireFork(fork).runtime;
    if (!runtime) throw new Error('The embedded runtime has not started yet.');
    return runtime;
  }

  function requireFork(fork: number): EmbeddedRuntimeFork {
    const found = forks.get(fork);
    if (!found) throw new Error('This fork of the workspace is gone (the sandbox restarted, or it was disposed); its changes are lost.');
    return found;
  }

}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
