import { defineConfig } from '@playwright/test';
import { existsSync } from 'node:fs';

// Debian's Chromium when present (this machine cannot download Playwright's own build); Playwright's otherwise.
const debianChromium = '/usr/bin/chromium';
const executablePath = existsSync(debianChromium) ? debianChromium : undefined;
const port = Number(process.env.CONCH_E2E_PORT ?? 4317);

export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  timeout: 60_000,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    screenshot: 'on',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  webServer: {
    command: `npx vite preview --host 127.0.0.1 --port ${port} --strictPort`,
    url: `http://127.0.0.1:${port}`,
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
