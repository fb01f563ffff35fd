// Page-side probes for the snapshot bench, as plain JavaScript strings (tsx would wrap named functions in a helper
// that does not exist in the page): a record of the save status and of each Send, and a census of what IndexedDB holds.
import type { Page } from '@playwright/test';

export type SaveTransition = { state: string | null; t: number };
export type PageRecord = { saves: SaveTransition[]; sendAt: number[] };
/** Per object store of the app's database: how many records, and the bytes of their keys and values. */
export type StoreCensus = Record<string, { count: number; bytes: number }>;

/** Installed before the app: notes every save-status change and every Enter in the prompt box (a Send). */
export const RECORD_SAVES_AND_SENDS = `
  const record = { saves: [], sendAt: [] };
  window.__snapshotBench = record;
  performance.setResourceTimingBufferSize(100000);
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && event.target && event.target.dataset && event.target.dataset.testid === 'prompt-input') {
      record.sendAt.push(performance.now());
    }
  }, true);
  let last;
  new MutationObserver(() => {
    const element = document.querySelector('[data-testid="save-status"]');
    const state = element ? element.getAttribute('data-state') : null;
    if (state !== last) {
      last = state;
      record.saves.push({ state, t: performance.now() });
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-state'] });
`;

export function pageRecord(page: Page): Promise<PageRecord> {
  return page.evaluate('window.__snapshotBench') as Promise<PageRecord>;
}

export function pageNow(page: Page): Promise<number> {
  return page.evaluate('performance.now()') as Promise<number>;
}

/** Waits until the save status is "saved" and has not changed for `quietMs` (the app saves again ~1 s after changes). */
export async function waitSettled(page: Page, quietMs = 2500, timeoutMs = 180_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { saves } = await pageRecord(page);
    const now = await pageNow(page);
    const last = saves.at(-1);
    if (last?.state === 'saved' && now - last.t >= quietMs) return last.t;
    if (Date.now() > deadline) throw new Error(`The save status did not settle (last: ${JSON.stringify(last)}).`);
    await page.waitForTimeout(100);
  }
}

/** Every object store of the app's database (`conch`): record count and bytes of keys and values. */
export function census(page: Page): Promise<StoreCensus> {
  return page.evaluate(`(async () => {
    const db = await new Promise((resolve, reject) => {
      const request = indexedDB.open('conch');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const size = (v) => {
      if (v === null || v === undefined) return 0;
      if (ArrayBuffer.isView(v)) return v.byteLength;
      if (v instanceof ArrayBuffer) return v.byteLength;
      if (typeof v === 'string') return v.length;
      if (typeof v === 'number' || typeof v === 'boolean') return 8;
      if (Array.isArray(v)) return v.reduce((n, x) => n + size(x), 0);
      if (typeof v === 'object') return Object.entries(v).reduce((n, [k, x]) => n + k.length + size(x), 0);
      return 0;
    };
    const out = {};
    for (const name of Array.from(db.objectStoreNames)) {
      out[name] = await new Promise((resolve, reject) => {
        let bytes = 0;
        let count = 0;
        const request = db.transaction(name).objectStore(name).openCursor();
        request.onerror = () => reject(request.error);
        request.onsuccess = () => {
          const cursor = request.result;
          if (!cursor) return resolve({ count, bytes });
          bytes += size(cursor.value) + String(cursor.key).length;
          count++;
          cursor.continue();
        };
      });
    }
    db.close();
    return out;
  })()`) as Promise<StoreCensus>;
}

/** navigator.storage.estimate()'s usage (bytes). */
export function storageUsage(page: Page): Promise<number> {
  return page.evaluate('navigator.storage.estimate().then((e) => e.usage ?? 0)') as Promise<number>;
}

/** Start times (page clock) of the requests to the mock provider's chat completions endpoint, oldest first. */
export function completionRequestStarts(page: Page): Promise<number[]> {
  return page.evaluate(
    `performance.getEntriesByType('resource').filter((e) => e.name.includes('/chat/completions')).map((e) => e.startTime).sort((a, b) => a - b)`,
  ) as Promise<number[]>;
}

/** The app's own User Timing measures named conch:* (name, start, duration, detail). */
export function appMeasures(page: Page): Promise<{ name: string; start: number; duration: number; detail: unknown }[]> {
  return page.evaluate(
    `performance.getEntriesByType('measure').filter((m) => m.name.startsWith('conch:')).map((m) => ({ name: m.name, start: m.startTime, duration: m.duration, detail: m.detail ?? null }))`,
  ) as Promise<{ name: string; start: number; duration: number; detail: unknown }[]>;
}

/** Growth per object store between two censuses (stores absent before count from zero). */
export function growth(before: StoreCensus, after: StoreCensus): StoreCensus {
  const out: StoreCensus = {};
  for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const a = after[name] ?? { count: 0, bytes: 0 };
    const b = before[name] ?? { count: 0, bytes: 0 };
    out[name] = { count: a.count - b.count, bytes: a.bytes - b.bytes };
  }
  return out;
}
