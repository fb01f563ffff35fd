// Repositories of a chosen size for tests and benchmarks: distinct, deterministic files spread over folders.
import type { MockFileSpec } from './fixture';

/** `count` text files of about `bytes` bytes each (each different, so each is its own blob), 50 to a folder. */
export function manyFiles(count: number, bytes = 200): MockFileSpec[] {
  const files: MockFileSpec[] = [];
  for (let i = 0; i < count; i++) {
    const head = `// file ${i}\n`;
    const line = `export const value${i} = ${i};\n`;
    const data = head + line.repeat(Math.max(1, Math.ceil((bytes - head.length) / line.length)));
    files.push({ path: `src/part${Math.floor(i / 50)}/file${i}.ts`, data });
  }
  return files;
}
