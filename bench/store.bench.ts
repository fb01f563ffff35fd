// Storage figures (Node + fake-indexeddb, so absolute numbers are a stand-in for a browser's IndexedDB; the
// shape is what matters): append cost at the 10th vs the 10,000th message, loading a 5,000-message session, and
// repo zip import vs fflate's raw unzipSync of the same 20,000-file zip. Prints figures; asserts nothing.
import 'fake-indexeddb/auto';
import { unzipSync, zipSync, type Zippable } from 'fflate';
import { repairTranscript } from '../src/store/sessions/repair-transcript';
import { createSessionStore } from '../src/store/sessions/session-store';
import { transcript } from '../src/store/testing/messages';
import { readRepoZip } from '../src/store/zip/repo-zip';

const store = createSessionStore({ prefix: `bench-${Date.now()}-` });

// Per-append times, median and mean: the machine is shared and a GC pause can land in any window, so the median
// is the figure to compare; the early point pools 20 fresh sessions to have as many samples as the late one.
async function appendCost(): Promise<void> {
  const messages = transcript(2600); // 10,400 messages
  const timeAppend = async (id: string, seq: number) => {
    const started = performance.now();
    await store.appendEntry(id, messages[seq]);
    return (performance.now() - started) * 1000;
  };
  const early: number[] = [];
  for (let session = 0; session < 20; session++) {
    const { id } = await store.createSession();
    for (let seq = 0; seq < 20; seq++) early.push(await timeAppend(id, seq));
  }
  const { id } = await store.createSession();
  const late: number[] = [];
  for (let seq = 0; seq < 10_200; seq++) {
    const micros = await timeAppend(id, seq);
    if (seq >= 9_800) late.push(micros);
  }
  const report = (label: string, values: number[]) =>
    `append around entry ${label}: ${median(values).toFixed(0)} µs/append median, ${mean(values).toFixed(0)} µs mean (${values.length} appends)`;
  console.log(report('10', early));
  console.log(report('10,000', late));
  console.log(`late/early median ratio: ${(median(late) / median(early)).toFixed(2)}x`);
}

function mean(values: number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

async function loadCost(): Promise<void> {
  const { id } = await store.createSession();
  for (const message of transcript(1250)) await store.appendEntry(id, message);
  const runs: number[] = [];
  for (let run = 0; run < 5; run++) {
    const started = performance.now();
    const messages = repairTranscript(await store.loadEntries(id));
    runs.push(performance.now() - started);
    if (messages.length !== 5000) throw new Error(`expected 5000 messages, got ${messages.length}`);
  }
  console.log(`load a 5,000-message session (validated + repaired): ${median(runs).toFixed(0)} ms (median of 5)`);
}

function generatedRepo(): Uint8Array {
  const files: Zippable = {};
  let x = 1;
  let bytes = 0;
  for (let i = 0; i < 20_000; i++) {
    let text = '';
    const size = 1000 + (i % 40) * 100; // 1.0 to 4.9 KB, about 2.5 KB on average
    while (text.length < size) {
      x = (x * 1103515245 + 12345) & 0x7fffffff;
      text += `export function f${x % 9973}(a${x % 7}: number) { return a${x % 7} * ${x % 1000} + ${(x >> 9) % 777}; }\n`;
    }
    files[`repo-main/src/module${i % 200}/file${i}.ts`] = new TextEncoder().encode(text);
    bytes += text.length;
  }
  const zip = zipSync(files, { level: 6 });
  console.log(`generated repo: 20,000 files, ${(bytes / 1024 ** 2).toFixed(1)} MB, zip ${(zip.length / 1024 ** 2).toFixed(1)} MB`);
  return zip;
}

async function zipImportCost(): Promise<void> {
  const zip = generatedRepo();
  const raw: number[] = [];
  const ours: number[] = [];
  for (let run = 0; run < 5; run++) {
    let started = performance.now();
    const plain = unzipSync(zip);
    raw.push(performance.now() - started);
    started = performance.now();
    const result = await readRepoZip(zip);
    ours.push(performance.now() - started);
    if (result.files.size !== Object.keys(plain).length) throw new Error('file counts differ');
  }
  const r = median(raw);
  const o = median(ours);
  console.log(`fflate unzipSync: ${r.toFixed(0)} ms; readRepoZip (checks, progress, cancel): ${o.toFixed(0)} ms; ratio ${(o / r).toFixed(2)}x (target <= 1.5x)`);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

await appendCost();
await loadCost();
await zipImportCost();
store.close();
