// Write-back of 30 changed files to a local folder (target: at most 500 ms), against the in-memory folder that
// behaves like the File System Access API, in a 2,000-file project: plan (every changed file checked against the
// sync record) and apply (each written through a writable, the new record made). Also an import and a refresh of
// that project, for scale. Prints figures; asserts nothing.
import { gitBlobId, type ObjectId } from '../src/runtime/object-id';
import { applyWriteBack, planWriteBack, readFolder, refreshFromDisk, type WorkspaceChange } from '../src/remote';
import { memoryFolder } from '../src/remote/local-folder/testing/memory-directory';

const FILES = 2_000;
const CHANGED = 30;
const RUNS = 7;
const encoder = new TextEncoder();

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function project(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < FILES; i++) files[`src/module-${i % 40}/file-${i}.ts`] = `export const value${i} = ${i};\n`.repeat(40);
  return files;
}

async function once() {
  const root = memoryFolder('bench-app', project());
  let at = performance.now();
  const imported = await readFolder(root);
  const importMs = performance.now() - at;
  const blobs = new Map<ObjectId, Uint8Array>();
  for (const data of imported.files.values()) blobs.set(await gitBlobId(data), data);

  const paths = [...imported.files.keys()].slice(0, CHANGED - 5);
  const changes: WorkspaceChange[] = [
    ...paths.map((path): WorkspaceChange => ({ path, status: 'modified', data: encoder.encode(`// edited\n${path}\n`) })),
    ...Array.from({ length: 5 }, (_, i): WorkspaceChange => ({ path: `src/new/dir-${i}/added.ts`, status: 'added', data: encoder.encode(`new ${i}\n`) })),
  ];
  root.put(paths[0], 'changed on disk too\n');

  at = performance.now();
  const plan = await planWriteBack({ root, sync: imported.sync, changes, readBase: async (id) => blobs.get(id) ?? null });
  const planMs = performance.now() - at;
  at = performance.now();
  const result = await applyWriteBack(plan, {
    selected: new Set(changes.map((change) => change.path)),
    conflicts: new Map([[paths[0], 'take-conch' as const]]),
  });
  const applyMs = performance.now() - at;
  if (result.written.length !== CHANGED) throw new Error(`wrote ${result.written.length} files, expected ${CHANGED}`);

  root.put(paths[1], 'edited outside\n');
  at = performance.now();
  const refresh = await refreshFromDisk(root, result.sync);
  const refreshMs = performance.now() - at;
  if (refresh.edits.length !== 1) throw new Error(`refresh found ${refresh.edits.length} edits, expected 1`);
  return { importMs, planMs, applyMs, refreshMs };
}

type Run = Awaited<ReturnType<typeof once>>;
const runs: Run[] = [];
for (let i = 0; i < RUNS; i++) runs.push(await once());
const figure = (key: keyof Run) => `${median(runs.map((run) => run[key])).toFixed(1)} ms`;
console.log(`local folder, ${FILES} files, median of ${RUNS} runs (in-memory File System Access folder):`);
console.log(`  import:                         ${figure('importMs')}`);
console.log(`  write-back of ${CHANGED} files, plan:   ${figure('planMs')}`);
console.log(`  write-back of ${CHANGED} files, apply:  ${figure('applyMs')}`);
console.log(`  write-back total:               ${median(runs.map((run) => run.planMs + run.applyMs)).toFixed(1)} ms (target 500 ms)`);
console.log(`  refresh from disk:              ${figure('refreshMs')}`);
