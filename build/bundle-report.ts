// After `vite build`: how much JavaScript the page loads before it can do anything (the entry chunk and everything
// it imports statically, which is what index.html pulls in), gzipped, and the largest chunks that load on demand.
// The app's budget for the first figure is 150 KB gzipped.
import { gzipSync } from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

export const INITIAL_JS_BUDGET_KB = 150;

/** One emitted JavaScript file, as much of it as the report needs. */
export type BundleChunk = {
  fileName: string;
  isEntry: boolean;
  imports: readonly string[];
  code: string;
  /** What the chunk mostly holds, e.g. `@codemirror/view` or `src/runtime`, because hashed names say nothing. */
  origin?: string;
};

export type ChunkSize = { fileName: string; origin?: string; bytes: number; gzipBytes: number };

export type BundleReport = {
  /** The entry chunks and their static imports, transitively. */
  initial: ChunkSize[];
  initialGzipBytes: number;
  initialBytes: number;
  /** Every other JavaScript file (dynamic imports, workers), largest gzipped first. */
  lazy: ChunkSize[];
};

/** Splits the emitted chunks into what the page loads up front and what it loads later, with gzipped sizes. */
export function measureBundle(chunks: readonly BundleChunk[]): BundleReport {
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const initialNames = new Set<string>();
  const visit = (name: string) => {
    if (initialNames.has(name)) return;
    initialNames.add(name);
    for (const imported of byName.get(name)?.imports ?? []) visit(imported);
  };
  for (const chunk of chunks) if (chunk.isEntry) visit(chunk.fileName);

  const sized = (c: BundleChunk): ChunkSize => ({
    fileName: c.fileName,
    origin: c.origin,
    bytes: Buffer.byteLength(c.code),
    gzipBytes: gzipSync(c.code).length,
  });
  const initial = chunks.filter((c) => initialNames.has(c.fileName)).map(sized);
  const lazy = chunks
    .filter((c) => !initialNames.has(c.fileName))
    .map(sized)
    .sort((a, b) => b.gzipBytes - a.gzipBytes);
  return {
    initial,
    initialGzipBytes: initial.reduce((sum, c) => sum + c.gzipBytes, 0),
    initialBytes: initial.reduce((sum, c) => sum + c.bytes, 0),
    lazy,
  };
}

/** The report as a person reads it: the initial figure against the budget, then the largest lazy chunks. */
export function formatBundleReport(report: BundleReport, largest = 8): string {
  // kB of 1000 bytes, as Vite prints them.
  const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
  const name = (c: ChunkSize) => (c.origin ? `${c.fileName} (${c.origin})` : c.fileName);
  const verdict = report.initialGzipBytes <= INITIAL_JS_BUDGET_KB * 1000 ? 'within' : 'OVER';
  const lines = [
    `initial JS: ${kb(report.initialGzipBytes)} gzipped (${kb(report.initialBytes)} raw, ${report.initial.length} file(s)); ` +
      `${verdict} the ${INITIAL_JS_BUDGET_KB} kB budget`,
    ...report.initial.map((c) => `  ${name(c)}  ${kb(c.gzipBytes)} gzipped`),
    `largest lazy chunks (${report.lazy.length} in all, loaded on demand):`,
    ...report.lazy.slice(0, largest).map((c) => `  ${name(c)}  ${kb(c.gzipBytes)} gzipped (${kb(c.bytes)} raw)`),
  ];
  return lines.join('\n');
}

/** Vite plugin: prints the bundle report after a production build; `onReport` also receives it (for benches). */
export function bundleReport(options: { onReport?(report: BundleReport): void } = {}): Plugin {
  let logger: ResolvedConfig['logger'] | undefined;
  let report: BundleReport | undefined;
  return {
    name: 'conch:bundle-report',
    apply: 'build',
    configResolved(config) {
      logger = config.logger;
    },
    generateBundle(_output, bundle) {
      const chunks: BundleChunk[] = [];
      for (const file of Object.values(bundle)) {
        if (file.type === 'chunk') {
          chunks.push({
            fileName: file.fileName,
            isEntry: file.isEntry,
            imports: file.imports,
            code: file.code,
            origin: originOf(Object.entries(file.modules).map(([id, m]) => [id, m.renderedLength] as const)),
          });
        } else if (/\.m?js$/.test(file.fileName)) {
          // Worker bundles are emitted as assets; they load on demand.
          const code = typeof file.source === 'string' ? file.source : Buffer.from(file.source).toString('utf8');
          chunks.push({ fileName: file.fileName, isEntry: false, imports: [], code, origin: 'worker' });
        }
      }
      report = measureBundle(chunks);
      options.onReport?.(report);
      // A budget nobody checks drifts (it reached 185 kB across one wave's merges): going over it fails the build,
      // and with it `npm test`, naming what the page now loads up front.
      if (report.initialGzipBytes > INITIAL_JS_BUDGET_KB * 1000) this.error(`The initial JavaScript is over its budget.\n${formatBundleReport(report)}`);
    },
    // After Vite's own file list, so the figure is the last thing a person sees.
    closeBundle() {
      if (report) logger?.info(`\n${formatBundleReport(report)}`);
    },
  };
}

/** The package (or src folder) contributing the most rendered code to a chunk. */
function originOf(modules: readonly (readonly [id: string, length: number])[]): string | undefined {
  const totals = new Map<string, number>();
  for (const [id, length] of modules) {
    const path = id.replace(/\\/g, '/').replace(/\?.*$/, '');
    const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
    const inSrc = /\/(src\/[^/]+)\//.exec(path);
    const key = inPackage?.[1] ?? inSrc?.[1];
    if (key) totals.set(key, (totals.get(key) ?? 0) + length);
  }
  let best: string | undefined;
  let bestLength = -1;
  for (const [key, length] of totals) if (length > bestLength) [best, bestLength] = [key, length];
  return best;
}
