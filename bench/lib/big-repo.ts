// A seeded, real-sized repository for the search bench: 20,000 TypeScript-like files of about 60 lines (~48 MB) in
// 50 packages of 400 files each (20 folders of 20 files per package), plus what a real checkout has around them: a
// .gitignore, a .git folder, ignored build output and node_modules. A few phrases are planted rarely so each bench
// pattern has a few dozen matches (fewer than the grep tool's default limit, so every file must be searched).
// The same tree is written to disk (for ripgrep) and packed into a zip (for the app's import).
import { zipSync, type Zippable } from 'fflate';

export type RepoFile = { path: string; data: Uint8Array };

export type BigRepo = {
  files: RepoFile[];
  /** Bytes of the searchable sources (not counting ignored output, node_modules and .git). */
  sourceBytes: number;
  sourceFiles: number;
  /** How many source files hold each planted phrase. */
  planted: { marker: number; deprecated: number; retry: number };
};

export const MARKER = 'QZX_MARKER_7f3a';

const PACKAGES = 50;
const FOLDERS_PER_PACKAGE = 20;
const FILES_PER_FOLDER = 20;
const LINES_PER_FILE = 63;

const WORDS = [
  'user', 'session', 'token', 'request', 'response', 'cache', 'store', 'event', 'handler', 'config', 'value', 'item',
  'list', 'index', 'query', 'result', 'error', 'state', 'model', 'view', 'route', 'field', 'record', 'buffer', 'stream',
  'node', 'tree', 'path', 'file', 'entry', 'limit', 'count', 'offset', 'page', 'batch', 'queue', 'worker', 'task',
];
const TYPES = ['string', 'number', 'boolean', 'Date', 'Uint8Array', 'unknown', 'Record<string, string>', 'string[]'];

/** A deterministic PRNG (mulberry32). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The repository for `seed`: the same files, byte for byte, every time. */
export function generateBigRepo(seed = 20_000): BigRepo {
  const next = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)];
  const camel = (a: string, b: string) => a + b[0].toUpperCase() + b.slice(1);
  const pascal = (a: string) => a[0].toUpperCase() + a.slice(1);
  const encoder = new TextEncoder();
  const files: RepoFile[] = [];
  const planted = { marker: 0, deprecated: 0, retry: 0 };
  let sourceBytes = 0;

  const line = (): string => {
    const a = pick(WORDS);
    const b = pick(WORDS);
    switch (Math.floor(next() * 8)) {
      case 0:
        return `import { ${camel(a, b)} } from './${b}';`;
      case 1:
        return `export function ${camel(a, b)}(${a}: ${pick(TYPES)}) {`;
      case 2:
        return `  const ${b} = await load${pascal(a)}(${a}, ${Math.floor(next() * 500)});`;
      case 3:
        return `  if (!${a}.${b}) throw new Error('no ${b}');`;
      case 4:
        return `  // the ${a} ${b} is cached for the next ${pick(WORDS)}`;
      case 5:
        return `export type ${pascal(a)}${pascal(b)} = ${pick(TYPES)};`;
      case 6:
        return `  return ${a}.${b}.length > ${Math.floor(next() * 1000)};`;
      default:
        return '}';
    }
  };

  for (let p = 0; p < PACKAGES; p++) {
    for (let f = 0; f < FOLDERS_PER_PACKAGE; f++) {
      const folder = `packages/pkg-${pad(p, 2)}/src/${pick(WORDS)}-${pad(f, 2)}`;
      for (let n = 0; n < FILES_PER_FOLDER; n++) {
        const lines: string[] = [];
        for (let i = 0; i < LINES_PER_FILE; i++) lines.push(line());
        // The rare phrases, each in roughly one file in 500, at a random line.
        if (next() < 0.002) {
          lines[Math.floor(next() * LINES_PER_FILE)] = `  const flag = '${MARKER}'; // search bench marker`;
          planted.marker++;
        }
        if (next() < 0.002) {
          const cases = ['Deprecated API', 'DEPRECATED api', 'deprecated  Api'];
          lines[Math.floor(next() * LINES_PER_FILE)] = `  // ${pick(cases)}: use the v2 client instead.`;
          planted.deprecated++;
        }
        if (next() < 0.002) {
          lines[Math.floor(next() * LINES_PER_FILE)] = `  ${pick(['retry', 'backoff'])}Count${Math.floor(10 + next() * 90)} += 1;`;
          planted.retry++;
        }
        const data = encoder.encode(`${lines.join('\n')}\n`);
        sourceBytes += data.length;
        files.push({ path: `${folder}/${pick(WORDS)}-${pad(n, 2)}.ts`, data });
      }
    }
  }
  const sourceFiles = files.length;
  // Around the sources: ignored output and dependencies (holding the marker, so a search that fails to skip them
  // shows it), the .gitignore that says so, and a .git folder (ripgrep honours .gitignore only inside a repository).
  const text = (path: string, content: string) => files.push({ path, data: encoder.encode(content) });
  text('.gitignore', 'dist/\nnode_modules/\n*.log\n');
  text('.git/HEAD', 'ref: refs/heads/main\n');
  text('README.md', '# Big repo\n\nA generated workspace for the search bench.\n');
  for (let i = 0; i < 20; i++) text(`dist/chunk-${i}.js`, `var flag = "${MARKER}";\n`.repeat(50));
  for (let i = 0; i < 20; i++) text(`node_modules/dep-${i}/index.js`, `module.exports = "${MARKER}";\n`);
  text('build.log', `${MARKER}\n`);
  return { files, sourceBytes, sourceFiles, planted };
}

/** Writes the repository under `folder` (emptied first), for ripgrep. Node only (the rest also runs in a page). */
export async function writeRepoToDisk(repo: BigRepo, folder: string): Promise<void> {
  const { mkdirSync, rmSync, writeFileSync } = await import('node:fs');
  const { dirname, join } = await import('node:path');
  rmSync(folder, { recursive: true, force: true });
  const made = new Set<string>();
  for (const file of repo.files) {
    const target = join(folder, file.path);
    const parent = dirname(target);
    if (!made.has(parent)) {
      mkdirSync(parent, { recursive: true });
      made.add(parent);
    }
    writeFileSync(target, file.data);
  }
}

/** The repository as a deflated zip under one top folder, the way a person downloads a repo. */
export function repoZip(repo: BigRepo, top = 'big-repo-main'): Uint8Array {
  const entries: Zippable = {};
  for (const file of repo.files) entries[`${top}/${file.path}`] = file.data;
  return zipSync(entries, { level: 1 });
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}
