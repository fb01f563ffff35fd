// node's browser engine in this Chromium: the boot probe chooses it and the runtime details say why; programs run
// in a worker of the opaque-origin sandbox frame, and from there reach none of the page's storage, DOM or origin,
// no network (a loopback listener hears nothing), cannot escape the frame's CSP, cannot hang the page, and cannot
// break the host with malformed bridge messages.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { zipSync } from 'fflate';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from '@playwright/test';

const snapshot = (page: Page, name: string) => page.screenshot({ path: test.info().outputPath(`${name}.png`) });

/** A screen row whose whole text matches `pattern` (xterm renders one element per row). */
const row = (shell: Locator, pattern: RegExp) => shell.locator('.xterm-rows > div').filter({ hasText: pattern });

async function openTerminal(page: Page): Promise<Locator> {
  await expect(page.getByTestId('runtime-status')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  await page.getByRole('tab', { name: 'Terminal' }).click();
  const shell = page.getByTestId('terminal').getByTestId('terminal-shell');
  await expect(shell.locator('.xterm-rows')).toContainText('$ ', { timeout: 15_000 });
  await shell.click();
  return shell;
}

/**
 * Runs `command` in the terminal and waits for `marker` on a row of its own. The echoed marker ends in a sum the
 * shell works out, so the typed line (which may wrap onto a row of its own) never passes for it.
 */
async function run(page: Page, shell: Locator, command: string, marker: string, timeout = 30_000): Promise<void> {
  await page.keyboard.type(`${command}; echo ${marker}-$((40 + 2))`);
  await page.keyboard.press('Enter');
  await expect(row(shell, new RegExp(`^\\s*${marker}-42\\s*$`))).toHaveCount(1, { timeout });
}

test('the boot probe picks the browser engine, the runtime details say why, and node runs on it', async ({ page }) => {
  await page.goto('/');
  const shell = await openTerminal(page);
  await page.getByTestId('runtime-status').getByRole('button').first().click();
  const engine = page.getByTestId('node-engine');
  await expect(engine).toHaveAttribute('data-engine', 'browser');
  await expect(engine).toContainText("runs on the browser's own engine");
  await expect(engine).toContainText('opaque origin');
  // Chromium has a heap probe in the isolated frame (performance.measureUserAgentSpecificMemory).
  await expect(engine).toContainText('its heap probed (a program past 2 GB is stopped)');
  await page.keyboard.press('Escape');
  await shell.click();
  await run(page, shell, `node -p "typeof WebAssembly + ' ' + process.version"; node --engine=quickjs -p "typeof WebAssembly"`, 'ENGINES-DONE');
  await expect(row(shell, /^\s*object v20\.19\.0\s*$/)).toHaveCount(1);
  await expect(row(shell, /^\s*undefined\s*$/)).toHaveCount(1);
});

/** A loopback listener that counts every request and WebSocket upgrade it hears. */
async function listen(): Promise<{ server: Server; port: number; hits: string[] }> {
  const hits: string[] = [];
  const server = createServer((request, response) => {
    hits.push(`${request.method} ${request.url}`);
    response.setHeader('Access-Control-Allow-Origin', '*');
    response.end('leaked');
  });
  server.on('upgrade', (request, socket) => {
    hits.push(`UPGRADE ${request.url}`);
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, hits };
}

/** Guest programs that each try one way out and print `<case> blocked` or `<case> LEAK <what>`. */
function attacks(port: number): Record<string, string> {
  const origin = `http://127.0.0.1:${port}`;
  const probe = `
const results = [];
// The browser's own callbacks (an XHR's, a socket's) are not the guest loop's to wait for: a timer keeps it alive.
const alive = setInterval(() => {}, 1000);
process.on('unhandledRejection', (reason) => results.push('unhandled ' + String(reason)));
const report = () => { clearInterval(alive); console.log(results.join('\\n')); };
async function check(name, attempt) {
  try {
    const value = await attempt();
    results.push(name + (value === undefined || value === null || value === false ? ' blocked' : ' LEAK ' + String(value).slice(0, 60)));
  } catch (error) {
    results.push(name + ' blocked');
  }
}
const settle = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
`;
  return {
    'attacks/storage.js': `${probe}
(async () => {
  await check('indexedDB', () => new Promise((resolve, reject) => { const open = indexedDB.open('conch'); open.onsuccess = () => resolve(open.result.objectStoreNames.length + ' stores'); open.onerror = () => reject(open.error); }));
  await check('indexedDB.databases', async () => (await indexedDB.databases()).map((d) => d.name).join(','));
  await check('localStorage', () => localStorage.getItem('conch-secret'));
  await check('sessionStorage', () => sessionStorage.getItem('conch-secret'));
  await check('cookie', () => document.cookie);
  await check('cookieStore', async () => JSON.stringify(await cookieStore.getAll()));
  await check('caches', async () => (await caches.keys()).join(','));
  await check('opfs', async () => { const root = await navigator.storage.getDirectory(); const names = []; for await (const name of root.keys()) names.push(name); return 'opened ' + names.join(','); });
  await check('broadcast', () => new Promise((resolve) => { const channel = new BroadcastChannel('conch'); channel.postMessage('from the sandbox'); channel.close(); resolve(undefined); }));
  report();
})();
`,
    'attacks/page.js': `${probe}
(async () => {
  await check('window', () => typeof window === 'object' && window.document && window.document.title);
  await check('parent', () => parent.document.title);
  await check('top', () => top.location.href);
  await check('navigate', () => { top.location.href = '${origin}/navigated'; return 'assigned'; });
  await check('open', () => open('${origin}/popup'));
  await check('location', () => { location.href = '${origin}/self'; return location.href.startsWith('http') && location.href; });
  report();
})();
`,
    'attacks/network.js': `${probe}
(async () => {
  await check('fetch', async () => (await fetch('${origin}/fetch')).status);
  await check('xhr', () => new Promise((resolve, reject) => { const x = new XMLHttpRequest(); x.open('GET', '${origin}/xhr'); x.onload = () => resolve(x.status); x.onerror = () => reject(new Error('failed')); x.send(); }));
  await check('websocket', () => new Promise((resolve, reject) => { const ws = new WebSocket('ws://127.0.0.1:${port}/ws'); ws.onopen = () => resolve('open'); ws.onerror = () => reject(new Error('failed')); }));
  await check('eventsource', () => new Promise((resolve, reject) => { const es = new EventSource('${origin}/sse'); es.onopen = () => resolve('open'); es.onerror = () => { es.close(); reject(new Error('failed')); }; }));
  await check('importScripts', () => { importScripts('${origin}/script.js'); return 'imported'; });
  await check('beacon', () => navigator.sendBeacon('${origin}/beacon', 'x'));
  await check('import', async () => { await import('${origin}/module.js'); return 'imported'; });
  report();
})();
`,
    'attacks/escape.js': `${probe}
const workerFetch = (url) => new Promise((resolve, reject) => {
  const worker = new Worker(url);
  worker.onmessage = (event) => resolve(event.data);
  worker.onerror = () => reject(new Error('no worker'));
  setTimeout(() => reject(new Error('silent')), 1500);
});
const inner = "fetch('${origin}/nested').then((r) => postMessage('fetched ' + r.status), () => postMessage(null))";
(async () => {
  await check('nested blob worker', () => workerFetch(URL.createObjectURL(new Blob([inner], { type: 'text/javascript' }))));
  await check('data: worker', () => workerFetch('data:text/javascript,' + encodeURIComponent(inner)));
  await check('data: import', async () => { await import('data:text/javascript,' + encodeURIComponent(inner)); return 'imported'; });
  await check('blob: import', async () => { await import(URL.createObjectURL(new Blob([inner], { type: 'text/javascript' }))); return 'imported'; });
  await check('eval fetch', async () => (await (0, eval)("fetch('${origin}/eval')")).status);
  await check('Function fetch', async () => (await new Function("return fetch('${origin}/function')")()).status);
  report();
})();
`,
    'attacks/bridge.js': `
// Garbage into the bridge, straight from the engine worker's own postMessage: the relay and the host must drop it.
const kinds = [null, 1, 'x', [], {}, { type: 'done', id: 1, exitCode: 0 }, { type: 'fs', id: -1 }, { type: 'fs', id: 1, request: { op: 'readFile', args: ['/etc/passwd'] } },
  { type: 'output', id: 1, chunks: [[7, 'bad']] }, { type: 'fs-grow', id: 1, reply: new SharedArrayBuffer(8) }, { type: 'output', id: 1, chunks: 'x'.repeat(100000) }];
for (let i = 0; i < 5000; i++) postMessage(kinds[i % kinds.length]);
for (let i = 0; i < 200; i++) postMessage({ type: 'output', id: 999999, chunks: [[1, 'forged ' + i + '\\n']] });
console.log('bridge flooded');
`,
  };
}

test.describe('guest code in the sandbox frame', () => {
  let listener: Awaited<ReturnType<typeof listen>>;
  test.beforeEach(async () => {
    listener = await listen();
  });
  test.afterEach(async () => {
    await new Promise((resolve) => listener.server.close(resolve));
  });

  test("reaches none of the page's storage, DOM or origin, and no network; the CSP holds through nested workers and data: or blob: URLs", async ({ page }) => {
    await page.goto('/');
    // Something of the page's to find: storage, a cookie, a broadcast listener.
    await page.evaluate(() => {
      localStorage.setItem('conch-secret', 'S3CRET');
      document.cookie = 'conch-secret=S3CRET';
      const channel = new BroadcastChannel('conch');
      (window as unknown as { heard: unknown[] }).heard = [];
      channel.onmessage = (event) => (window as unknown as { heard: unknown[] }).heard.push(event.data);
    });
    await expect(page.getByTestId('runtime-status')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
    await page.getByTestId('import-zip').setInputFiles({ name: 'attacks.zip', mimeType: 'application/zip', buffer: Buffer.from(zipSync(Object.fromEntries(Object.entries(attacks(listener.port)).map(([path, text]) => [`attacks-main/${path}`, new TextEncoder().encode(text)])))) });
    await expect(page.getByTestId('import-result')).toContainText('files', { timeout: 30_000 });
    const shell = await openTerminal(page);
    const verdicts: string[] = [];
    for (const name of ['storage', 'page', 'network', 'escape']) {
      await run(page, shell, `clear; node attacks/${name}.js`, `${name.toUpperCase()}-DONE`);
      const screen = await shell.locator('.xterm-rows').innerText();
      verdicts.push(...screen.split('\n').map((line) => line.trim()).filter((line) => / (blocked|LEAK .*)$|^unhandled /.test(line)));
      await snapshot(page, `node-sandbox-${name}`);
    }
    const cases = ['indexedDB', 'indexedDB.databases', 'localStorage', 'sessionStorage', 'cookie', 'cookieStore', 'caches', 'opfs', 'broadcast', 'window', 'parent', 'top', 'navigate', 'open', 'location', 'fetch', 'xhr', 'websocket', 'eventsource', 'importScripts', 'beacon', 'import', 'nested blob worker', 'data: worker', 'data: import', 'blob: import', 'eval fetch', 'Function fetch'];
    for (const name of cases) expect(verdicts, name).toContain(`${name} blocked`);
    expect(verdicts.filter((line) => line.includes('LEAK') || line.startsWith('unhandled'))).toEqual([]);
    await page.waitForTimeout(1000); // anything sent late would arrive by now
    expect(listener.hits).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { heard: unknown[] }).heard)).toEqual([]);
    expect(page.url()).not.toContain('navigated');
    expect(page.context().pages()).toHaveLength(1);
  });
});

/** The slowest of `rounds` answers from the page to `1 + 1`, in milliseconds, while something else runs. */
async function slowestAnswer(page: Page, rounds: number): Promise<number> {
  let slowest = 0;
  for (let i = 0; i < rounds; i++) {
    const ms = await page.evaluate(() => new Promise<number>((resolve) => {
      const started = performance.now();
      setTimeout(() => resolve(1 + 1 === 2 ? performance.now() - started : -1), 0);
    }));
    slowest = Math.max(slowest, ms);
    await page.waitForTimeout(20);
  }
  return slowest;
}

test('a tight loop, a huge allocation or a flood of fs calls leaves the page answering, and each is stopped', async ({ page }) => {
  await page.goto('/');
  const shell = await openTerminal(page);
  const programs = {
    loop: 'while (true) {}',
    allocation: 'const kept = []; while (true) kept.push(new Array(1e6).fill(kept.length));',
    'fs flood': "const fs = require('fs'); for (;;) { fs.statSync('/'); fs.writeFileSync('flood.txt', 'x'); }",
  };
  const slowest: Record<string, number> = {};
  for (const [name, program] of Object.entries(programs)) {
    await page.keyboard.type(`node -e "${program}"`);
    await page.keyboard.press('Enter');
    await page.waitForTimeout(300); // running by now
    slowest[name] = await slowestAnswer(page, 15);
    await page.keyboard.press('Control+C');
    await expect(shell.locator('.xterm-rows')).toContainText('$ ', { timeout: 5_000 });
    await run(page, shell, `node -p "'after ' + '${name}'"`, `AFTER-${name.replace(' ', '-').toUpperCase()}`);
    await expect(row(shell, new RegExp(`^\\s*after ${name}\\s*$`))).toHaveCount(1);
  }
  for (const [name, ms] of Object.entries(slowest)) console.log(`  page's slowest answer while ${name.padEnd(10)} ran: ${ms.toFixed(1)} ms`);
  for (const ms of Object.values(slowest)) expect(ms).toBeLessThan(50);
});

test('a program flooding the bridge with malformed messages breaks nothing: the next program runs', async ({ page }) => {
  await page.goto('/');
  const shell = await openTerminal(page);
  await page.getByTestId('import-zip').setInputFiles({ name: 'bridge.zip', mimeType: 'application/zip', buffer: Buffer.from(zipSync({ 'b-main/attacks/bridge.js': new TextEncoder().encode(attacks(9)['attacks/bridge.js']) })) });
  await expect(page.getByTestId('import-result')).toHaveAttribute('data-kind', 'success', { timeout: 30_000 });
  await shell.click();
  await run(page, shell, 'node attacks/bridge.js', 'BRIDGE-DONE');
  await expect(row(shell, /^\s*bridge flooded\s*$/)).toHaveCount(1);
  await expect(row(shell, /forged/)).toHaveCount(0);
  await run(page, shell, `node -p "require('fs').readdirSync('attacks').join(',')"`, 'NEXT-DONE');
  await expect(row(shell, /^\s*bridge\.js\s*$/)).toHaveCount(1);
});
