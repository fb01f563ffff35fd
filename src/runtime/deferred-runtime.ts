// A Runtime that stands in for one still being prepared (the sandbox booting, a session's workspace being put into
// it), so a session can be shown and used before that is done: every call waits until the real runtime is handed
// over, then goes to it; if preparing fails, every call fails with that reason. Watchers registered early are
// attached on hand-over.

import { resolvePath } from './paths';
import type { SearchRequest } from './search-types';
import { runSearchAsync, runtimeSearchSource } from './search/run-search-async';
import { writeStoredZip } from './stored-zip';
import type { EntryType, ExecOptions, ExecResult, Runtime, StagedImport } from './types';

export type RuntimeIdentity = Pick<Runtime, 'kind' | 'workdir'>;

/** The stand-in and the two ways to settle it. */
export interface DeferredRuntime {
  readonly runtime: Runtime;
  /** Hands over the real runtime; calls made so far (and all later ones) go to it. */
  resolve(target: Runtime): void;
  /** Makes every waiting and later call fail with `error`. */
  reject(error: Error): void;
}

/**
 * A stand-in runtime whose `kind` and `workdir` are `expected` until the real one is handed over (both sandboxes
 * use the same workdir, so a path resolved early stays right).
 */
export function createDeferredRuntime(expected: RuntimeIdentity): DeferredRuntime {
  let target: Runtime | undefined;
  let failure: Error | undefined;
  let settle!: { resolve(runtime: Runtime): void; reject(error: Error): void };
  const ready = new Promise<Runtime>((resolve, reject) => (settle = { resolve, reject }));
  ready.catch(() => undefined); // a failure nobody waited for is not an unhandled rejection
  const watchers = new Map<(paths: string[]) => void, () => void>();

  const get = (): Promise<Runtime> => (target ? Promise.resolve(target) : failure ? Promise.reject(failure) : ready);
  const forward =
    <A extends unknown[], R>(call: (runtime: Runtime, ...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> =>
      call(await get(), ...args);

  const runtime: Runtime = {
    get kind() {
      return (target ?? expected).kind;
    },
    get workdir() {
      return (target ?? expected).workdir;
    },
    readFile: forward((rt, path: string) => rt.readFile(path)),
    writeFile: forward((rt, path: string, data: Uint8Array | string) => rt.writeFile(path, data)),
    readdir: forward((rt, path: string): Promise<{ name: string; type: EntryType }[]> => rt.readdir(path)),
    stat: forward((rt, path: string) => rt.stat(path)),
    mkdir: forward((rt, path: string) => rt.mkdir(path)),
    rm: forward((rt, path: string, opts?: { recursive?: boolean }) => rt.rm(path, opts)),
    rename: forward((rt, from: string, to: string) => rt.rename(from, to)),
    exec: forward((rt, command: string, opts?: ExecOptions): Promise<ExecResult> => rt.exec(command, opts)),
    exportZip: forward((rt, opts?: { exclude?: string[] }) => rt.exportZip(opts)),
    importZip: forward((rt, zip: Uint8Array) => rt.importZip(zip)),
    importFiles: forward((rt, files: { path: string; data: Uint8Array }[]) =>
      rt.importFiles ? rt.importFiles(files) : rt.importZip(writeStoredZip(files)),
    ),
    realpath: forward(async (rt, path: string) => (rt.realpath ? rt.realpath(path) : path)),
    search: forward((rt, request: SearchRequest) =>
      rt.search ? rt.search(request) : runSearchAsync({ ...request, path: resolvePath(rt.workdir, request.path) }, runtimeSearchSource(rt)),
    ),
    beginImport: () => (target?.beginImport ? target.beginImport() : collectImport(runtime)),
    watch(listener) {
      if (target) return target.watch(listener);
      watchers.set(listener, () => undefined);
      return () => {
        watchers.get(listener)?.();
        watchers.delete(listener);
      };
    },
    // The stand-in owns nothing: the real runtime belongs to whoever handed it over.
    dispose: async () => {
      for (const stop of watchers.values()) stop();
      watchers.clear();
    },
  };

  return {
    runtime,
    resolve(real) {
      if (target || failure) return;
      target = real;
      for (const listener of watchers.keys()) watchers.set(listener, real.watch(listener));
      settle.resolve(real);
    },
    reject(error) {
      if (target || failure) return;
      failure = error;
      watchers.clear();
      settle.reject(error);
    },
  };
}

/**
 * A staged import for a runtime that cannot stage (or is not handed over yet): the files are only collected, and
 * commit imports them all at once with importFiles.
 */
function collectImport(runtime: Runtime): StagedImport {
  let files: { path: string; data: Uint8Array }[] | undefined = [];
  return {
    add(batch) {
      files?.push(...batch);
    },
    commit() {
      const all = files;
      files = undefined;
      if (!all) return Promise.reject(new Error('This import was already committed or discarded; start the import again.'));
      return runtime.importFiles!(all);
    },
    discard() {
      files = undefined;
    },
  };
}
