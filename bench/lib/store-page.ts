// Storage measurements that run INSIDE a Chromium page served by the Vite dev server (browser-store.bench.ts imports
// this module with page.evaluate): real IndexedDB, the app's own zip import path, fflate in the same browser.
import { unzipSync, zipSync, type Zippable } from 'fflate';
import { importRepo } from '../../src/app/workspace/workspace-io';
import { createEmbeddedRuntimeInWorker } from '../../src/runtime/embedded/client';
import { createSessionStore, readRepoZip, repairTranscript, zipFromFiles } from '../../src/store';
import { longTranscript } from './long-transcript';

export type AppendFigures = { earlyMedianUs: number; earlyMeanUs: number; earlySamples: number; lateMedianUs: number; lateMeanUs: number; lateSamples: number };
export type LoadFigures = { messages: number; runsMs: number[] };
export type ZipFigures = {
  files: number; megabytes: number; zipMegabytes: number;
  rawMs: number[]; readMs: number[]; importMs: number[];
  /** The two steps importRepo takes after readRepoZip, timed on their own. */
  rezipMs: number[]; runtimeImportMs: number[];
};

const storeFor = () => createSessionStore({ prefix: `bench-${Date.now()}-${Math.random().toString(36).slice(2, 6)}-` });

/** Time per append around the 10th entry (20 fresh sessions, 20 appends each) and around the 10,000th. */
export async function appendCost(lateAt = 10_000, lateSamples = 400): Promise<AppendFigures> {
  const store = storeFor();
  const messages = longTranscript(lateAt + lateSamples / 2);
  const time = async (id: string, seq: number) => {
    const started = performance.now();
    await store.appendEntry(id, messages[seq]);
    return (performance.now() - started) * 1000;
  };
  const early: number[] = [];
  for (let session = 0; session < 20; session++) {
    const { id } = await store.createSession();
    for (let seq = 0; seq < 20; seq++) early.push(await time(id, seq));
  }
  const { id } = await store.createSession();
  const late: number[] = [];
  for (let seq = 0; seq < messages.length; seq++) {
    const micros = await time(id, seq);
    if (seq >= lateAt - lateSamples / 2) late.push(micros);
  }
  store.close();
  return {
    earlyMedianUs: median(early), earlyMeanUs: mean(early), earlySamples: early.length,
    lateMedianUs: median(late), lateMeanUs: mean(late), lateSamples: late.length,
  };
}

/** Loading a stored session of `count` messages as the app does (entries validated, transcript repaired). */
export async function loadCost(count = 5000, runs = 5): Promise<LoadFigures> {
  const store = storeFor();
  const messages = longTranscript(count);
  const record = await store.importSession({ title: 'Long session', model: 'mock-model', provider: 'openai-compatible', messages });
  const runsMs: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    const loaded = repairTranscript(await store.loadEntries(record.id));
    runsMs.push(performance.now() - started);
    if (loaded.length !== count) throw new Error(`expected ${count} messages, loaded ${loaded.length}`);
  }
  store.close();
  return { messages: count, runsMs };
}

/** A generated repo zip (files of 1.0 to 4.9 KB of TypeScript under one top folder), deflated. */
function generatedRepo(files: number): { zip: Uint8Array; bytes: number } {
  const entries: Zippable = {};
  const encoder = new TextEncoder();
  let x = 1;
  let bytes = 0;
  for (let i = 0; i < files; i++) {
    let text = '';
    const size = 1000 + (i % 40) * 100;
    while (text.length < size) {
      x = (Math.imul(x, 1103515245) + 12345) & 0x7fffffff;
      text += `export function f${x % 9973}(a${x % 7}: number) { return a${x % 7} * ${x % 1000} + ${(x >> 9) % 777}; }\n`;
    }
    entries[`repo-main/src/module${i % 200}/file${i}.ts`] = encoder.encode(text);
    bytes += text.length;
  }
  return { zip: zipSync(entries, { level: 6 }), bytes };
}

/**
 * The app's repo import (readRepoZip's checks, each batch of inflated files staged in the embedded runtime's worker
 * as the next is inflated, then the baseline packed and the staged workspace committed) into an empty workspace, against
 * fflate's bare unzipSync of the same zip, `runs` times each.
 */
export async function zipImportCost(files = 20_000, runs = 3): Promise<ZipFigures> {
  const { zip, bytes } = generatedRepo(files);
  const runtime = await createEmbeddedRuntimeInWorker();
  const rawMs: number[] = [];
  const readMs: number[] = [];
  const importMs: number[] = [];
  const rezipMs: number[] = [];
  const runtimeImportMs: number[] = [];
  try {
    for (let run = 0; run < runs; run++) {
      let started = performance.now();
      const plain = unzipSync(zip);
      rawMs.push(performance.now() - started);

      started = performance.now();
      const read = await readRepoZip(zip);
      readMs.push(performance.now() - started);
      if (read.files.size !== Object.keys(plain).length) throw new Error(`readRepoZip kept ${read.files.size} of ${Object.keys(plain).length} files`);

      started = performance.now();
      const stored = zipFromFiles(read.files, { level: 0 });
      rezipMs.push(performance.now() - started);
      started = performance.now();
      await runtime.importZip(stored);
      runtimeImportMs.push(performance.now() - started);

      // A person imports into a new session, whose workspace starts empty: time that, in a sandbox of its own.
      const fresh = await createEmbeddedRuntimeInWorker();
      try {
        started = performance.now();
        const imported = await importRepo(fresh, { kind: 'zip', name: 'repo-main.zip', data: zip });
        importMs.push(performance.now() - started);
        if (imported.files !== files) throw new Error(`importRepo imported ${imported.files} of ${files} files`);
        const check = await fresh.stat(`${fresh.workdir}/src/module7/file7.ts`);
        if (check?.type !== 'file') throw new Error('the imported workspace lacks src/module7/file7.ts');
      } finally {
        await fresh.dispose();
      }
    }
  } finally {
    await runtime.dispose();
  }
  return { files, megabytes: bytes / 1024 ** 2, zipMegabytes: zip.length / 1024 ** 2, rawMs, readMs, importMs, rezipMs, runtimeImportMs };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function mean(values: number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}
