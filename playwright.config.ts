import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from './e2e/chromium';

const port = Number(process.env.CONCH_E2E_PORT ?? 4317);

// Flows that measure time (frame and main-thread task lengths, a write-back's milliseconds) or that
// load a 20,000-file repo run last, one at a time, after the others have run two at a time: side by side on a
// 2-core machine their figures would measure the neighbour.
const TIMED = ['long-session', 'hostile-import', 'local-folder', 'compaction', 'snapshots', 'subagents-big', 'git-big', 'node-figures'].map((name) => `**/${name}.spec.ts`);

export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  timeout: 60_000,
  fullyParallel: false,
  workers: 2,
  projects: [
    { name: 'flows', testIgnore: TIMED },
    { name: 'timed', testMatch: TIMED, workers: 1, dependencies: ['flows'] },
  ],
  retries: 0,
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    // The built app registers a service worker that precaches the whole build; only the offline specs need it
    // (they allow it), everywhere else it would just download the build again in every test.
    serviceWorkers: 'block',
    screenshot: 'on',
    trace: 'retain-on-failure',
    launchOptions: { executablePath: CHROMIUM_EXECUTABLE, args: CHROMIUM_ARGS },
  },
  webServer: {
    command: `npx vite preview --host 127.0.0.1 --port ${port} --strictPort`,
    url: `http://127.0.0.1:${port}`,
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
