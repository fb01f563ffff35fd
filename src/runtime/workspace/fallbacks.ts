// Runtime.scan and Runtime.applyChanges for any runtime: its own when it has them (the embedded runtime does both in
// its worker, in one round trip), else the same result through its ordinary file methods.

import type { Runtime, ScannedEntry, ScanOptions, WorkspaceChanges } from '../types';
import { runtimeScanSource, scanSource } from './scan';

/** `runtime.scan`, or the same walk through readdir/stat/readFile with the hashing done here. */
export function scanRuntime(runtime: Runtime, paths: string[], options: ScanOptions = {}): Promise<ScannedEntry[]> {
  if (runtime.scan) return runtime.scan(paths, options);
  return scanSource(runtimeScanSource(runtime), paths, options);
}

/** `runtime.applyChanges`, or the same changes made one call at a time. */
export async function applyToRuntime(runtime: Runtime, changes: WorkspaceChanges): Promise<void> {
  if (runtime.applyChanges) return runtime.applyChanges(changes);
  const at = (path: string) => `${runtime.workdir}/${path}`;
  for (const path of changes.removeFiles) {
    const info = await runtime.stat(at(path));
    if (info && info.type !== 'dir') await runtime.rm(at(path));
  }
  for (const path of [...changes.removeFolders].sort((a, b) => b.length - a.length)) {
    const info = await runtime.stat(at(path));
    if (info?.type === 'dir' && (await runtime.readdir(at(path))).length === 0) await runtime.rm(at(path), { recursive: true });
  }
  for (const path of changes.makeFolders) {
    const info = await runtime.stat(at(path));
    if (info && info.type !== 'dir') await runtime.rm(at(path));
    await runtime.mkdir(at(path));
  }
  for (const file of changes.writeFiles) {
    if ((await runtime.stat(at(file.path)))?.type === 'dir') await runtime.rm(at(file.path), { recursive: true });
    await runtime.writeFile(at(file.path), file.data);
  }
}
