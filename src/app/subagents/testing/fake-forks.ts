// Test forks: a copy of the (small) workspace in a second in-process embedded runtime, and a whole-file merge (a file
// changed on both sides is one conflicting hunk). Good enough to test the engine before, and apart from, the real
// copy-on-write fork and 3-way merge.
import type { TaskPendingFile } from '../../../ai/types';
import { createEmbeddedRuntime } from '../../../runtime/embedded/in-process';
import type { ForkChange } from '../../../runtime/types';
import { Workspace } from '../../../runtime/workspace/workspace';
import type { MergePlan, ReadLive, SubagentMerge, WorkerForks } from '../worker-fork';

const text = (bytes: Uint8Array | null) => (bytes === null ? null : new TextDecoder().decode(bytes));
const same = (a: Uint8Array | null, b: Uint8Array | null) => text(a) === text(b);

async function filesOf(workspace: Workspace, folder = workspace.workdir): Promise<Map<string, Uint8Array>> {
  const files = new Map<string, Uint8Array>();
  for (const entry of await workspace.readdir(folder)) {
    const path = `${folder}/${entry.name}`;
    if (entry.type === 'dir') for (const [p, b] of await filesOf(workspace, path)) files.set(p, b);
    else files.set(workspace.relative(path)!, await workspace.readFile(path));
  }
  return files;
}

export function fakeForks(live: Workspace): WorkerForks & { made: number } {
  const forks = {
    made: 0,
    async fork() {
      forks.made++;
      const base = await filesOf(live);
      const workspace = Workspace.of(createEmbeddedRuntime({ files: Object.fromEntries(base) }));
      return {
        workspace,
        async changes(): Promise<ForkChange[]> {
          const now = await filesOf(workspace);
          const paths = new Set([...base.keys(), ...now.keys()]);
          return [...paths].flatMap((path) => {
            const before = base.get(path) ?? null;
            const after = now.get(path) ?? null;
            return same(before, after) ? [] : [{ path, base: before, fork: after }];
          });
        },
        dispose: () => workspace.dispose(),
      };
    },
    merge: wholeFileMerge,
  };
  return forks;
}

async function plan(pending: TaskPendingFile[], readLive: ReadLive, resolution?: 'worker' | 'live'): Promise<MergePlan> {
  const result: MergePlan = { changes: { removeFiles: [], removeFolders: [], makeFolders: [], writeFiles: [] }, conflicts: [], filesChanged: [], pending };
  for (const file of pending) {
    const liveNow = text(await readLive(file.path));
    result.filesChanged.push(file.path);
    if (liveNow === file.worker) continue;
    if (liveNow !== file.base) {
      if (resolution === undefined) result.conflicts.push({ path: file.path, hunks: [{ baseStart: 1, base: file.base ?? '', live: liveNow ?? '', worker: file.worker ?? '' }] });
      if (resolution !== 'worker') continue;
    }
    if (file.worker === null) result.changes.removeFiles.push(file.path);
    else result.changes.writeFiles.push({ path: file.path, data: new TextEncoder().encode(file.worker) });
  }
  return result;
}

export const wholeFileMerge: SubagentMerge = {
  planMerge: (changes, readLive) => plan(changes.map((c) => ({ path: c.path, base: text(c.base), worker: text(c.fork) })), readLive),
  planApply: (pending, readLive, resolution) => plan(pending, readLive, resolution),
  async applyMergePlan(workspace, merged) {
    for (const path of merged.changes.removeFiles) await workspace.rm(workspace.resolve(path));
    for (const file of merged.changes.writeFiles) await workspace.writeFile(workspace.resolve(file.path), file.data);
  },
};
