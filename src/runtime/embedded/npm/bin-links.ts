// node_modules/.bin. npm links each bin there; the embedded shell runs any executable file on PATH as a shell script
// (a `#!/usr/bin/env node` line is not followed), so each bin is a small shell script instead of a link: it runs
// the package's file with the embedded node (or the shell, for bins that are shell scripts), the way npm's own
// shims do on Windows. The path is relative to the shim, so the project can move.

import { isObject, type JsonObject } from './package-version';
import type { PackageFile } from './tarball';

/** A package's bins as npm reads its package.json: `bin` (a path, named after the package, or a map), else `directories.bin`. */
export function binsOf(packageJson: JsonObject, files: PackageFile[]): Record<string, string> {
  const name = typeof packageJson.name === 'string' ? packageJson.name : '';
  const bins: Record<string, string> = {};
  const add = (binName: string, target: string) => {
    const cleanName = binName.split('/').pop() ?? '';
    const cleanTarget = packageRelative(target);
    if (cleanName && !cleanName.startsWith('.') && cleanTarget) bins[cleanName] = cleanTarget;
  };
  const bin = packageJson.bin;
  if (typeof bin === 'string') {
    add(name, bin);
  } else if (isObject(bin)) {
    for (const [binName, target] of Object.entries(bin)) if (typeof target === 'string') add(binName, target);
  } else if (isObject(packageJson.directories) && typeof packageJson.directories.bin === 'string') {
    const folder = packageRelative(packageJson.directories.bin);
    if (folder) {
      for (const file of files) {
        if (file.path.startsWith(`${folder}/`) && !file.path.slice(folder.length + 1).includes('/')) add(file.path.slice(folder.length + 1), file.path);
      }
    }
  }
  return bins;
}

/**
 * The shim for bin `target` (package-relative) of the package at node_modules location `location`, written into
 * `<project>/node_modules/.bin`. `firstLine` is the target's first line, to tell a shell script from JavaScript.
 */
export function binShim(location: string, target: string, firstLine: string): string {
  const fromBin = `${location.replace(/^node_modules\//, '')}/${target}`;
  const runner = /^#!.*\b(ba)?sh\b/.test(firstLine) && !/\bnode\b/.test(firstLine) ? 'bash' : 'node';
  return `#!/bin/sh\n# npm bin shim (Conch): runs ${location.replace(/^node_modules\//, '')}/${target} with the embedded ${runner}.\n${runner} "\${0%/*}/../${fromBin}" "$@"\n`;
}

/** `./bin/x.js` -> `bin/x.js`; undefined for a path that leaves the package. */
function packageRelative(path: string): string | undefined {
  const kept: string[] = [];
  for (const segment of path.replace(/\\/g, '/').split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') return undefined;
    kept.push(segment);
  }
  return kept.length > 0 ? kept.join('/') : undefined;
}
