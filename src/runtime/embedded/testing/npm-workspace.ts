// An embedded runtime whose npm talks to the fixture registry, for the npm tests and the bench. The cache is the
// test's own, so two runtimes can share one (a second install, a reload) or not.

import { readFileSync } from 'node:fs';
import { createEmbeddedRuntime, type EmbeddedRuntime } from '../in-process';
import { memoryPackageCache, type PackageCache } from '../npm/environment';
import { unpackTarball } from '../npm/tarball';

/** A runtime using `registry` (a URL, or a function for one that changes) and `cache`. */
export function npmRuntime(options: { registry: string | (() => string); cache?: PackageCache; files?: Record<string, string | Uint8Array> }): EmbeddedRuntime {
  const registry = options.registry;
  return createEmbeddedRuntime({
    files: options.files,
    npm: { registry: typeof registry === 'string' ? () => registry : registry, cache: options.cache ?? memoryPackageCache() },
  });
}

/** The files of a fixture tarball (registry/<name>-<version>.tgz), as a project to work in. */
export async function fixturePackageFiles(fileName: string): Promise<Record<string, Uint8Array>> {
  const tarball = new Uint8Array(readFileSync(new URL(`../npm/testing/registry/${fileName}`, import.meta.url)));
  return Object.fromEntries((await unpackTarball(tarball)).map((file) => [file.path, file.data]));
}

/** Every file under `folder` (workspace-relative) with its text, to compare a tree before and after a command. */
export async function treeOf(runtime: EmbeddedRuntime, folder: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (dir: string) => {
    if (!(await runtime.stat(dir))) return;
    for (const entry of await runtime.readdir(dir)) {
      const path = `${dir}/${entry.name}`;
      if (entry.type === 'dir') await walk(path);
      else out[path] = new TextDecoder().decode(await runtime.readFile(path));
    }
  };
  await walk(folder);
  return out;
}
