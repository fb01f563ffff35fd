// Opening a shared session from a `?session=` link (issue 23, part 2), against a loopback host of session files on
// another port: the confirm card names the file, its size and the host before anything but the size was asked; Open
// shows progress, imports it as a new session (selected) and puts the page at #replay=1 with the link gone from the
// address. A hostile file is refused in exactly the words a file import uses; a host without CORS gets the plain
// message; Cancel imports nothing; a non-https link is refused without a fetch. Screenshots at 1280x800 and 390x844.
import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { zipSync } from 'fflate';
import { expect, snapshot, test } from './fixtures';
import { startSessionFileHost, type SessionFileHost } from './session-file-host';

const enc = new TextEncoder();
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** A transcript of two turns as session.jsonl holds it. */
function sessionJsonl(title: string): Uint8Array {
  const at = Date.UTC(2026, 10, 1);
  const header = { type: 'header', format: 'conch-session', version: 1, id: `shared-${title}`, title, createdAt: at, model: 'mock-model', provider: 'openai-compatible', exportedAt: at + 60_000 };
  const reply = (text: string, minute: number) => ({
    role: 'assistant', content: [{ type: 'text', text }], provider: 'openai-compatible', model: 'mock-model',
    usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, cost: { total: 0 } }, stopReason: 'stop', timestamp: at + minute * 60_000,
  });
  const lines = [
    header,
    { type: 'entry', seq: 0, message: { role: 'user', content: 'Make the greeting friendlier', timestamp: at } },
    { type: 'entry', seq: 1, message: reply('Done: it says hi now.', 1) },
    { type: 'entry', seq: 2, message: { role: 'user', content: 'And add a README', timestamp: at + 120_000 } },
    { type: 'entry', seq: 3, message: reply('Added README.md.', 3) },
  ];
  return enc.encode(`${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
}

/** A session file as Conch exports it: the transcript, a workspace, and `padding` bytes of incompressible data in it. */
function sessionFile(title: string, padding = 0): Uint8Array {
  const files: Record<string, [Uint8Array, { level: 0 }]> = {
    'session.jsonl': [sessionJsonl(title), { level: 0 }],
    'workspace/app.js': [enc.encode('console.log("Hi, world");\n'), { level: 0 }],
    'workspace/README.md': [enc.encode('# hello\n'), { level: 0 }],
  };
  if (padding > 0) files['workspace/data.bin'] = [new Uint8Array(randomBytes(padding)), { level: 0 }];
  return zipSync(files);
}

/** A session file whose workspace entry climbs out of the workspace (zip slip): every import must refuse it. */
function hostileSessionFile(): Uint8Array {
  return zipSync({ 'session.jsonl': sessionJsonl('Hostile'), 'workspace/app.js': enc.encode('x\n'), '../outside.txt': enc.encode('x') });
}

let host: SessionFileHost;
const GOOD = sessionFile('Greeting work');
const BIG = sessionFile('Greeting work, big', 1024 * 1024);

test.beforeAll(async () => {
  host = await startSessionFileHost();
  host.put('greeting.conch.zip', GOOD);
  host.put('big.conch.zip', BIG);
  host.put('hostile.conch.zip', hostileSessionFile());
});
test.afterAll(() => host.close());

async function openWithLink(page: Page, fileUrl: string, where: 'query' | 'hash' = 'query'): Promise<void> {
  await page.goto(where === 'query' ? `/?session=${encodeURIComponent(fileUrl)}` : `/#session=${encodeURIComponent(fileUrl)}`);
  await expect(page.getByTestId('link-import')).toBeVisible();
}

const sessionItems = (page: Page) => page.getByTestId('session-item');

/** Waits for the library to be up (its list shown), so counts of session items mean something. */
async function libraryReady(page: Page): Promise<number> {
  await expect(page.getByTestId('runtime-status')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  await expect(sessionItems(page).first()).toBeAttached();
  return sessionItems(page).count();
}

for (const [name, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
  test(`a ?session= link opens the shared session in replay at step 1 (${name})`, async ({ page }) => {
    await page.setViewportSize(viewport);
    const file = `${host.url}/slow/big.conch.zip`;
    const earlier = host.requests.length;
    await openWithLink(page, file);
    const card = page.getByTestId('link-import');
    await expect(card.getByTestId('link-import-host')).toHaveText(host.url.replace('http://', ''));
    await expect(card.getByTestId('link-import-size')).toHaveText(`${(BIG.length / 1024 ** 2).toFixed(1)} MB`);
    await expect(card.getByTestId('link-import-title')).toContainText('big.conch.zip');
    // Before Open, the host was asked only for the size.
    expect(host.requests.slice(earlier)).toEqual(['HEAD /slow/big.conch.zip']);
    const before = await libraryReady(page);
    await snapshot(page, `link-import-01-card-${name}`);

    await card.getByTestId('link-import-open').click();
    const progress = page.getByTestId('link-import-progress');
    await expect(progress).toBeVisible();
    await expect(progress).toContainText(/Downloading .* of 1\.0 MB/);
    await snapshot(page, `link-import-02-progress-${name}`);

    await expect(card).toBeHidden({ timeout: 30_000 });
    await expect(sessionItems(page)).toHaveCount(before + 1);
    await expect(page.locator('[data-testid="session-item"][aria-current="true"]')).toContainText('Greeting work, big (imported)');
    await expect(page.locator('[data-testid="message"][data-role="user"]').first()).toHaveText(/Make the greeting friendlier/);
    const url = new URL(page.url());
    expect(url.hash).toBe('#replay=1');
    expect(url.search).toBe('');
    await snapshot(page, `link-import-03-imported-${name}`);

    // A reload does not import it again.
    await page.reload();
    await libraryReady(page);
    await expect(sessionItems(page)).toHaveCount(before + 1);
    await expect(page.getByTestId('link-import')).toHaveCount(0);
  });
}

test('a #session= link opens too, and the size shows once fetched when the host tells it', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await openWithLink(page, `${host.url}/cors/greeting.conch.zip`, 'hash');
  const before = await libraryReady(page);
  await page.getByTestId('link-import-open').click();
  await expect(page.getByTestId('link-import')).toBeHidden({ timeout: 30_000 });
  await expect(sessionItems(page)).toHaveCount(before + 1);
  await expect(page).toHaveURL(/\/#replay=1$/);
});

test('a hostile session file from a link is refused in the words of a file import, and nothing is stored', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await page.goto('/');
  const before = await libraryReady(page);
  await page.getByTestId('import-session').setInputFiles({ name: 'hostile.conch.zip', mimeType: 'application/zip', buffer: Buffer.from(hostileSessionFile()) });
  const fileRefusal = (await page.getByTestId('import-session-error').locator('p').textContent())?.trim();
  expect(fileRefusal).toMatch(/^hostile\.conch\.zip was not imported: /);

  await openWithLink(page, `${host.url}/cors/hostile.conch.zip`);
  await libraryReady(page);
  await page.getByTestId('link-import-open').click();
  const error = page.getByTestId('link-import-error');
  await expect(error).toBeVisible({ timeout: 30_000 });
  await expect(error).toHaveText(fileRefusal!);
  await expect(sessionItems(page)).toHaveCount(before);
  await snapshot(page, 'link-import-04-hostile');
  // Closing the card drops the link from the address; the page is as it was.
  await page.getByTestId('link-import-cancel').click();
  await expect(page.getByTestId('link-import')).toHaveCount(0);
  expect(new URL(page.url()).search).toBe('');
});

test('a host without CORS gets the plain message about cross-origin reads', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await openWithLink(page, `${host.url}/plain/greeting.conch.zip`);
  const before = await libraryReady(page);
  await expect(page.getByTestId('link-import-size')).toHaveText('not told by the host');
  await page.getByTestId('link-import-open').click();
  const error = page.getByTestId('link-import-error');
  await expect(error).toContainText('must allow cross-origin reads (send Access-Control-Allow-Origin');
  await expect(error).toContainText('gist');
  await expect(sessionItems(page)).toHaveCount(before);
  await snapshot(page, 'link-import-05-no-cors-phone');
});

test('Cancel, before Open or during the download, leaves nothing imported', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await openWithLink(page, `${host.url}/slow/big.conch.zip`);
  const before = await libraryReady(page);
  await page.getByTestId('link-import-cancel').click();
  await expect(page.getByTestId('link-import')).toHaveCount(0);
  expect(new URL(page.url()).search).toBe('');

  await openWithLink(page, `${host.url}/slow/big.conch.zip`);
  await libraryReady(page);
  await page.getByTestId('link-import-open').click();
  await expect(page.getByTestId('link-import-progress')).toContainText(/Downloading [1-9]/);
  await page.getByTestId('link-import-cancel').click();
  await expect(page.getByTestId('link-import')).toHaveCount(0);
  const sentAtCancel = host.slowBytesSent();
  await page.waitForTimeout(600); // long enough for several more 120 ms pieces, had the download gone on
  expect(host.slowBytesSent() - sentAtCancel).toBeLessThan(3 * 64 * 1024);
  await expect(sessionItems(page)).toHaveCount(before);
  expect(new URL(page.url()).hash).toBe('');
});

test('a non-https link is refused with a clear message, and nothing is fetched', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  const outside: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).hostname === 'example.com') outside.push(request.url());
  });
  await openWithLink(page, 'http://example.com/x.conch.zip');
  const card = page.getByTestId('link-import');
  await expect(card).toHaveAttribute('data-state', 'refused');
  await expect(page.getByTestId('link-import-error')).toContainText('only from https: addresses');
  await expect(page.getByTestId('link-import-open')).toHaveCount(0);
  await snapshot(page, 'link-import-06-refused-http');

  await page.setViewportSize(PHONE);
  await openWithLink(page, 'javascript:alert(1)');
  await expect(page.getByTestId('link-import-error')).toHaveText('Conch opens session files only from https: addresses; “javascript:” links are refused, and nothing was fetched.');
  await snapshot(page, 'link-import-07-refused-javascript-phone');
  expect(outside).toEqual([]);
});

test('Copy share link explains the hosting and gives the ?session= link', async ({ page, context }) => {
  await page.setViewportSize(DESKTOP);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/');
  await libraryReady(page);
  await page.getByTestId('copy-share-link').click();
  const dialog = page.getByTestId('share-link-dialog');
  await expect(dialog).toContainText('export it as a .conch.zip first');
  await expect(page.getByTestId('share-link-copy')).toBeDisabled();
  await page.getByTestId('share-link-url').fill('http://files.example.com/s.conch.zip');
  await expect(page.getByTestId('share-link-error')).toContainText('https:');
  const file = 'https://gist.githubusercontent.com/ada/0123/raw/greeting.conch.zip';
  await page.getByTestId('share-link-url').fill(file);
  const origin = new URL(page.url()).origin;
  await expect(page.getByTestId('share-link')).toHaveValue(`${origin}/?session=${file}`);
  await dialog.getByText('Where to host it').click();
  await expect(page.getByTestId('share-link-docs')).toContainText('Access-Control-Allow-Origin');
  await snapshot(page, 'link-import-08-share-link');
  await page.getByTestId('share-link-copy').click();
  await expect(page.getByTestId('share-link-result')).toContainText(`${origin}/?session=${file}`);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${origin}/?session=${file}`);
});
