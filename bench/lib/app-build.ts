// A production build of the app for the browser benches, kept in bench/results/dist so it never races with the
// `dist/` that `npm run build` and the e2e tests use. Rebuilt only when a source is newer than the last build.
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'vite';
import { bundleReport, type BundleReport } from '../../build/bundle-report';
import { REPO_ROOT, RESULTS_DIR } from './paths';

export const BENCH_DIST = join(RESULTS_DIR, 'dist');
const REPORT_FILE = join(RESULTS_DIR, 'bundle-report.json');
const SOURCES = ['src', 'public', 'build', 'index.html', 'vite.config.ts', 'svelte.config.js', 'package-lock.json'];

export type AppBuild = { outDir: string; report: BundleReport; rebuilt: boolean };

/** The app built into bench/results/dist, building first when the sources changed since the last bench build. */
export async function ensureAppBuild(options: { force?: boolean } = {}): Promise<AppBuild> {
  if (!options.force && isFresh()) {
    const report = JSON.parse(readFileSync(REPORT_FILE, 'utf8')) as BundleReport;
    return { outDir: BENCH_DIST, report, rebuilt: false };
  }
  let report: BundleReport | undefined;
  await build({
    root: REPO_ROOT,
    configFile: join(REPO_ROOT, 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir: BENCH_DIST, emptyOutDir: true },
    plugins: [bundleReport({ onReport: (r) => (report = r) })],
  });
  if (!report) throw new Error('The build finished without a bundle report; is build/bundle-report.ts still wired in?');
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(REPORT_FILE, JSON.stringify(report));
  return { outDir: BENCH_DIST, report, rebuilt: true };
}

function isFresh(): boolean {
  if (!existsSync(REPORT_FILE) || !existsSync(join(BENCH_DIST, 'index.html'))) return false;
  const built = statSync(REPORT_FILE).mtimeMs;
  return SOURCES.every((source) => newestMtime(join(REPO_ROOT, source)) < built);
}

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}
