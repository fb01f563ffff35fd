// A blank page on the Vite dev server's origin, cross-origin isolated like the app, from which a bench imports
// source modules (/src/..., /bench/lib/...) with page.evaluate.
import type { Browser, Page } from '@playwright/test';

/** Opens `${url}/__bench`, an empty page with the app's isolation headers; page errors are printed. */
export async function blankDevPage(browser: Browser, url: string): Promise<Page> {
  const page = await browser.newPage();
  await page.route(`${url}/__bench`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      headers: { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' },
      body: '<!doctype html><title>bench</title>',
    }),
  );
  page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
  await page.goto(`${url}/__bench`);
  return page;
}
