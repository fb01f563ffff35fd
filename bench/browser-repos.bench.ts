// A real-sized repo imported by address in the built app in Chromium (issue 20), against the loopback GitHub with
// 30 ms per request: bench/lib/big-repo.ts's 20,000 files (~48 MB) with a token (GraphQL batches), and 2,000 of them
// without one (the raw host). The mock speaks HTTPS with HTTP/2, as GitHub's hosts do: over HTTP/1.1 Chromium would
// open at most six connections to the raw host, and the import's 16 requests in flight would wait on them. Timed
// from the Import click to the result, as a person waits for it; the requests each import used are printed beside.
// Asserts nothing.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { startMockGitHub } from '../e2e/mock-github/server';
import { ensureAppBuild } from './lib/app-build';
import { generateBigRepo } from './lib/big-repo';
import { launchChromium } from './lib/chromium';
import { startPreviewServer } from './lib/servers';

const LATENCY_MS = 30;
const TOKEN = 'ghp_mock';

// A git repository cannot hold a .git folder, so the generated repo's (made for zip imports) stays out.
const repo = { files: generateBigRepo().files.filter((f) => !f.path.startsWith('.git/')) };
const github = await startMockGitHub({ latencyMs: 0, tls: selfSignedCertificate() });
await github.addRepo({ owner: 'octo', name: 'big', branches: { main: repo.files } });
await github.addRepo({ owner: 'octo', name: 'small', branches: { main: repo.files.slice(0, 2_000) } });
github.setLatency(LATENCY_MS);
const build = await ensureAppBuild();
const server = await startPreviewServer(build.outDir);
const browser = await launchChromium(['--ignore-certificate-errors']);

/** A throwaway certificate for 127.0.0.1, made with openssl. */
function selfSignedCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'conch-bench-tls-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1',
      '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function importByAddress(page: Page, address: string, token: string): Promise<number> {
  await page.goto(server.url);
  await page.locator('[data-testid="runtime-status"][data-state="ready"]').waitFor({ timeout: 60_000 });
  await page.getByTestId('settings-open').click();
  await page.getByTestId('github-api-url').fill(github.apiUrl);
  await page.getByTestId('github-raw-url').fill(github.rawUrl);
  await page.getByTestId('github-token').fill(token);
  await page.getByTestId('settings-save').click();
  await page.getByTestId('settings-save').waitFor({ state: 'hidden' });
  await page.getByTestId('repo-url').fill(address);
  github.resetCounts();
  const started = Date.now();
  await page.getByTestId('repo-import').click();
  await page.locator('[data-testid="repo-progress"][data-state="done"], [data-testid="repo-progress"][data-state="failed"]').waitFor({ state: 'attached', timeout: 300_000 });
  const elapsed = Date.now() - started;
  const state = await page.getByTestId('repo-progress').getAttribute('data-state');
  if (state !== 'done') throw new Error(`The import of ${address} failed: ${await page.getByTestId('repo-error').textContent()}`);
  return elapsed;
}

try {
  const bytes = (files: typeof repo.files) => files.reduce((sum, f) => sum + f.data.length, 0) / 1e6;
  const only = process.env.REPOS_BENCH_ONLY;
  for (const c of [
    { address: 'octo/small', token: '', files: repo.files.slice(0, 2_000) },
    { address: 'octo/big', token: TOKEN, files: repo.files },
  ].filter((c) => !only || c.address.endsWith(only))) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, serviceWorkers: process.env.SW_BLOCK ? 'block' : 'allow' });
    const page = await context.newPage();
    const ms = await importByAddress(page, c.address, c.token);
    const phases = await page.evaluate(() =>
      performance.getEntriesByType('measure').filter((m) => m.name === 'conch:host-fetch' || m.name === 'conch:host-import').map((m) => `${m.name.slice(6)} ${(m.duration / 1000).toFixed(1)} s`),
    );
    console.log(
      `github import in the app, ${c.files.length.toLocaleString('en')} files / ${bytes(c.files).toFixed(1)} MB, ${c.token ? 'with a token' : 'no token'}: ` +
        `${(ms / 1000).toFixed(1)} s from Import to the result (${LATENCY_MS} ms per request); ` +
        `requests: ${github.counts.api} REST, ${github.counts.graphql} GraphQL, ${github.counts.raw} raw; ${phases.join(', ')}`,
    );
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
  await github.close();
}
