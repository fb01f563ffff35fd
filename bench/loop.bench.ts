// The agent loop's overhead per tool call, Conch's against Pi's (pi-agent-core, installed by the bench itself into a
// temporary folder) on the same scripted run: the same messages and calls per message, a no-op read-like tool with
// the same two-field schema and arguments that need coercion ("7" -> 7), so lookup, validation, events and transcript
// bookkeeping are all paid. Conch runs as the app wires it (context guard, declared effects) and as it ships (bundled,
// bench/lib/conch-build.ts). The two loops alternate within one process and the ratio is taken from the same run.
// Prints figures; asserts nothing.
import { builtConchLoop } from './lib/conch-build';
import type { LoopRun, LoopShape } from './lib/loop-shape';
import { installPi, PI_VERSION } from './lib/pi-install';
import { piLoop } from './lib/pi-loop';

const SHAPES: LoopShape[] = [
  { calls: 1, messages: 1000 },
  { calls: 10, messages: 100 },
  { calls: 100, messages: 10 },
];
const WARM_UP_ROUNDS = 5;
const RUNS = 21;

const install = installPi();
let pi: LoopRun | undefined;
if (install.ok) pi = await piLoop(install);
else console.log(`Pi (pi-agent-core ${PI_VERSION}) could not be installed, so only Conch is measured: ${install.reason}`);

const loops: [name: string, run: LoopRun][] = [['Conch', await builtConchLoop()]];
if (pi) loops.push([`Pi ${PI_VERSION}`, pi]);

for (let round = 0; round < WARM_UP_ROUNDS; round++) {
  for (const shape of SHAPES) for (const [, run] of loops) await run(shape);
}

const perCall = (ms: number, shape: LoopShape) => (ms * 1000) / (shape.calls * shape.messages);
const median = (values: number[]) => values.slice().sort((a, b) => a - b)[Math.floor(values.length / 2)];
const totals = loops.map(() => 0);

for (const shape of SHAPES) {
  const runs: number[][] = loops.map(() => []);
  for (let i = 0; i < RUNS; i++) {
    // Alternate who goes first, so neither always runs right after the other's garbage.
    for (let j = 0; j < loops.length; j++) {
      const k = (i + j) % loops.length;
      runs[k].push(perCall(await loops[k][1](shape), shape));
    }
  }
  const medians = runs.map(median);
  medians.forEach((m, k) => (totals[k] += m));
  const figures = loops.map(([name], k) => `${name} ${medians[k].toFixed(1)} µs/call (best ${Math.min(...runs[k]).toFixed(1)})`);
  const ratio = medians.length > 1 ? `; Conch/Pi ${(medians[0] / medians[1]).toFixed(2)}` : '';
  const label = `${shape.calls} call${shape.calls > 1 ? 's' : ''}/message x ${shape.messages}`;
  console.log(`loop overhead (${label}, median of ${RUNS}): ${figures.join(', ')}${ratio}`);
}

if (totals.length > 1) {
  const mean = (total: number) => (total / SHAPES.length).toFixed(1);
  console.log(
    `loop overhead overall (mean of the shapes' medians): Conch ${mean(totals[0])} µs/call, Pi ${mean(totals[1])} µs/call; ` +
      `Conch/Pi ${(totals[0] / totals[1]).toFixed(2)}`,
  );
}
