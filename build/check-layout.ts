// The house's layout rules, counted from the files (`npm run check:layout`, run by `npm test`): a folder's top holds
// at most ~20 source files, no file-name prefix stands in for a folder (four or more files at one folder's top
// sharing a first word), no source file is over 400 lines, and each layer folder's index.ts (or main file) opens
// with a comment naming its parts. Tests are not source files here; test support in `testing/` folders is.
// `--before REF` also prints the figures of an earlier commit beside today's.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MAX_TOP_SOURCES = 20;
const MAX_LINES = 400;
const MIN_PREFIX_GROUP = 4;
const COUNTED_TOPS = ['src/runtime', 'src/app', 'src/store'];
/** Each layer folder and the file that opens with the comment naming its parts. */
const LAYER_MAIN_FILES: Record<string, string> = {
  'src/ai': 'src/ai/types.ts',
  'src/agent': 'src/agent/index.ts',
  'src/runtime': 'src/runtime/types.ts',
  'src/tools': 'src/tools/index.ts',
  'src/store': 'src/store/index.ts',
  'src/app': 'src/app/app.svelte.ts',
  'src/remote': 'src/remote/index.ts',
};

type SourceFile = { path: string; text: string };

const isTest = (path: string) => /\.(test|spec)\.ts$/.test(path) || /\.perf\.test\.ts$/.test(path);
const isSource = (path: string) => /\.(ts|svelte)$/.test(path) && !path.endsWith('.d.ts') && !isTest(path);
const lineCount = (text: string) => (text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0));

function workingTreeFiles(): SourceFile[] {
  const files: SourceFile[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const path = posix.join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.push({ path, text: readFileSync(join(ROOT, path), 'utf8') });
    }
  };
  walk('src');
  return files;
}

/** The files of `src/` at a commit, read in one `git cat-file --batch`; null when the commit is not in this clone. */
function filesAt(ref: string): SourceFile[] | null {
  const git = (args: string[], input?: string) =>
    execFileSync('git', args, { cwd: ROOT, input, maxBuffer: 1 << 30, stdio: ['pipe', 'pipe', 'ignore'] });
  let listing: string;
  try {
    listing = git(['ls-tree', '-r', ref, '--', 'src']).toString('utf8');
  } catch {
    return null;
  }
  const entries = listing.split('\n').filter(Boolean).map((line) => {
    const [meta, path] = line.split('\t');
    return { id: meta.split(' ')[2], path };
  });
  const batch = git(['cat-file', '--batch'], entries.map((e) => e.id).join('\n') + '\n');
  const files: SourceFile[] = [];
  let at = 0;
  for (const entry of entries) {
    const headerEnd = batch.indexOf(10, at);
    const size = Number(batch.subarray(at, headerEnd).toString('latin1').split(' ')[2]);
    files.push({ path: entry.path, text: batch.subarray(headerEnd + 1, headerEnd + 1 + size).toString('utf8') });
    at = headerEnd + 1 + size + 1;
  }
  return files;
}

type Figures = {
  topEntries: Record<string, number>;
  topSources: Record<string, number>;
  largest: { path: string; lines: number };
  overLimit: { path: string; lines: number }[];
};

function figuresOf(files: SourceFile[]): Figures {
  const topEntries: Record<string, number> = {};
  const topSources: Record<string, number> = {};
  for (const top of COUNTED_TOPS) {
    const names = new Set<string>();
    let sources = 0;
    for (const file of files) {
      if (!file.path.startsWith(top + '/')) continue;
      const rest = file.path.slice(top.length + 1);
      names.add(rest.split('/')[0]);
      if (!rest.includes('/') && isSource(file.path)) sources++;
    }
    topEntries[top] = names.size;
    topSources[top] = sources;
  }
  const sized = files.filter((f) => isSource(f.path)).map((f) => ({ path: f.path, lines: lineCount(f.text) }));
  sized.sort((a, b) => b.lines - a.lines);
  return { topEntries, topSources, largest: sized[0], overLimit: sized.filter((f) => f.lines > MAX_LINES) };
}

/** The rule breaches of today's files, each as a sentence. */
function breaches(files: SourceFile[], figures: Figures): string[] {
  const found: string[] = [];
  const byFolder = new Map<string, string[]>();
  for (const file of files) {
    if (!isSource(file.path)) continue;
    const folder = posix.dirname(file.path);
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), posix.basename(file.path)]);
  }
  for (const [folder, names] of byFolder) {
    if (names.length > MAX_TOP_SOURCES) found.push(`${folder}/ holds ${names.length} source files at its top (at most ${MAX_TOP_SOURCES})`);
    const byFirstWord = new Map<string, string[]>();
    for (const name of names) {
      const first = name.split(/[-.]/)[0];
      byFirstWord.set(first, [...(byFirstWord.get(first) ?? []), name]);
    }
    for (const [word, group] of byFirstWord) {
      if (group.length >= MIN_PREFIX_GROUP) {
        found.push(`${folder}/ has ${group.length} files named '${word}-…' (${group.join(', ')}): a folder of their own`);
      }
    }
  }
  for (const file of figures.overLimit) found.push(`${file.path} has ${file.lines} lines (at most ${MAX_LINES})`);
  for (const [layer, mainFile] of Object.entries(LAYER_MAIN_FILES)) {
    const main = files.find((f) => f.path === mainFile);
    if (!main) {
      found.push(`${mainFile} is missing: it names the parts of ${layer}/`);
      continue;
    }
    const opening = main.text.match(/^(?:\/\/.*\n)+/)?.[0] ?? '';
    const parts = new Set(
      files
        .map((f) => f.path)
        .filter((p) => p.startsWith(layer + '/') && p.slice(layer.length + 1).includes('/'))
        .map((p) => p.slice(layer.length + 1).split('/')[0])
        .filter((part) => part !== 'testing'),
    );
    const unnamed = [...parts].filter((part) => !opening.includes(`${part}/`));
    if (unnamed.length) found.push(`${mainFile}'s opening comment does not name ${unnamed.map((p) => `${p}/`).join(', ')}`);
  }
  return found;
}

function describe(label: string, figures: Figures): string[] {
  return [
    `${label}:`,
    ...COUNTED_TOPS.map((top) => `  ${top}/: ${figures.topEntries[top]} entries at its top, ${figures.topSources[top]} of them source files`),
    `  largest source file: ${figures.largest.path} (${figures.largest.lines} lines)`,
    `  source files over ${MAX_LINES} lines: ${figures.overLimit.length ? figures.overLimit.map((f) => `${f.path} ${f.lines}`).join(', ') : 'none'}`,
  ];
}

const beforeAt = process.argv.indexOf('--before');
const beforeRef = beforeAt >= 0 ? process.argv[beforeAt + 1] : undefined;
const files = workingTreeFiles();
const now = figuresOf(files);
if (beforeRef) {
  const earlier = filesAt(beforeRef);
  console.log(earlier ? describe(`before (${beforeRef})`, figuresOf(earlier)).join('\n') : `before (${beforeRef}): not in this clone`);
}
console.log(describe('now', now).join('\n'));
const problems = breaches(files, now);
if (problems.length) {
  console.error(`\nThe layout breaks ${problems.length} rule(s):\n${problems.map((p) => `- ${p}`).join('\n')}`);
  process.exit(1);
}
console.log('layout: every rule holds');
