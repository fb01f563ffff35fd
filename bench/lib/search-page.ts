// The search bench's Chromium side, imported by a page of the Vite dev server (search.bench.ts): the app's embedded
// runtime in its Web Worker, filled by the app's own repo import, searched through the tools from the page.
import { importRepo } from '../../src/app/workspace/workspace-io';
import { createEmbeddedRuntimeInWorker } from '../../src/runtime/embedded/client';
import type { Runtime } from '../../src/runtime/types';
import { SEARCH_CASES, timeCase } from './search-cases';

let runtime: Runtime | undefined;

/** Imports the repo zip at `url` into a fresh worker runtime; returns the number of files imported. */
export async function loadRepo(url: string): Promise<number> {
  const data = new Uint8Array(await (await fetch(url)).arrayBuffer());
  await runtime?.dispose();
  runtime = await createEmbeddedRuntimeInWorker();
  return (await importRepo(runtime, { kind: 'zip', name: 'big-repo-main.zip', data })).files;
}

/** Times SEARCH_CASES[index] `runs` times after a warm-up (with `afterChange`, each after a file was written). */
export async function timeSearchCase(index: number, runs: number, afterChange = false): Promise<{ ms: number[]; found: number }> {
  if (!runtime) throw new Error('loadRepo first');
  return timeCase(runtime, SEARCH_CASES[index], runs, afterChange);
}
