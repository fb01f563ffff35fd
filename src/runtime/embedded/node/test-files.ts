// The files `node --test` runs when given no paths, found as Node 20's test runner finds them: under the working
// directory, outside node_modules, named *.test.js, *-test.js, *_test.js, test-*.js or test.js (also .cjs/.mjs, and
// here .ts/.mts/.cts), or any such script inside a folder named `test`.

import type { IFileSystem } from 'just-bash';

const SCRIPT = /\.(c|m)?(j|t)s$/;
const TEST_NAME = /(^test\.|^test-|[.\-_]test\.)[^/]*$/;

/** Absolute paths of the test files under `dir`, sorted. */
export async function findTestFiles(fs: IFileSystem, dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (folder: string, insideTestFolder: boolean): Promise<void> => {
    let names: string[];
    try {
      names = await fs.readdir(folder);
    } catch {
      return;
    }
    for (const name of names.sort()) {
      if (name === 'node_modules' || name.startsWith('.')) continue;
      const path = `${folder === '/' ? '' : folder}/${name}`;
      const info = await fs.stat(path).catch(() => undefined);
      if (info?.isDirectory) await walk(path, insideTestFolder || name === 'test');
      else if (info?.isFile && SCRIPT.test(name) && !name.endsWith('.d.ts') && (insideTestFolder || TEST_NAME.test(name))) found.push(path);
    }
  };
  await walk(dir, false);
  return found.sort();
}

/** True when `path` names a file `node --test` would pick up from a folder. */
export function looksLikeTestFile(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return SCRIPT.test(name) && (TEST_NAME.test(name) || path.includes('/test/'));
}
