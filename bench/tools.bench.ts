// Read and edit on a 5 MB file (100k lines) through the embedded runtime. Prints milliseconds per operation
// (median of several runs after a warm-up); target under 100 ms each.
import { createEmbeddedRuntime } from '../src/runtime/embedded';
import { createEditTool } from '../src/tools/edit/edit';
import { createReadTool } from '../src/tools/read';

const LINES = 100_000;
const RUNS = 7;

function makeFile(): string {
  const lines: string[] = [];
  for (let i = 1; i <= LINES; i++) {
    lines.push(`export const value${i} = "lorem ipsum ${i}"; // ${i}`);
  }
  return `${lines.join('\n')}\n`;
}

async function median(label: string, setUp: () => Promise<void>, run: () => Promise<unknown>): Promise<void> {
  const times: number[] = [];
  for (let i = 0; i < RUNS + 1; i++) {
    await setUp();
    const started = performance.now();
    await run();
    if (i > 0) times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  console.log(`${label}: ${times[Math.floor(times.length / 2)].toFixed(1)} ms (median of ${RUNS}, min ${times[0].toFixed(1)} ms)`);
}

const runtime = await createEmbeddedRuntime();
const path = `${runtime.workdir}/big.ts`;
const content = makeFile();

const read = createReadTool(runtime);
const edit = createEditTool(runtime);
const contentBytes = new TextEncoder().encode(content);
const reset = () => runtime.writeFile(path, contentBytes);
console.log(`file: ${LINES} lines, ${(contentBytes.length / 1024 / 1024).toFixed(2)} MB`);
const nothing = async () => {};

await reset();
await median('read, first page', nothing, () => read.execute('b', { path: 'big.ts' }));
await median('read, offset near the end', nothing, () => read.execute('b', { path: 'big.ts', offset: LINES - 500 }));
await median('edit, one exact edit near the end', reset, () =>
  edit.execute('b', { path: 'big.ts', edits: [{ oldText: `value${LINES - 10} =`, newText: `renamed${LINES - 10} =` }] }),
);
// Trailing spaces and a curly quote in oldText force the tolerant (fuzzy) path.
await median('edit, tolerant match near the end', reset, () =>
  edit.execute('b', {
    path: 'big.ts',
    edits: [{
      oldText: `export const value${LINES - 20} = \u201clorem ipsum ${LINES - 20}\u201d; // ${LINES - 20}   \n`,
      newText: `export const changed = "lorem";\n`,
    }],
  }),
);
// A near miss: fails, and the error shows the closest region (a linear scan of the file).
await median('edit, not found (closest region in the error)', reset, () =>
  edit
    .execute('b', { path: 'big.ts', edits: [{ oldText: `export const valeu${LINES - 30} = "lorem ipsm`, newText: 'x' }] })
    .then(
      () => { throw new Error('expected the near-miss edit to fail'); },
      () => undefined,
    ),
);
await runtime.dispose();
