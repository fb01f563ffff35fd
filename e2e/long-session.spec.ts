// A 2,000-message session (prompts, Markdown answers, tool calls and results), imported through the session-file
// input, stays windowed and scrolls smoothly: few message elements in the DOM, the right messages at the top and
// the bottom after wheel and keyboard scrolling, and frame times measured during a scroll (printed; only a generous
// sanity bound is asserted, since the machine running this may be busy).
import type { Page } from '@playwright/test';
import { exportSessionFile } from '../src/store/files/session-file/session-file';
import { longTranscript } from '../bench/lib/long-transcript';
import { expect, snapshot, test } from './fixtures';

const MESSAGES = 2000;

type FrameStats = { frames: number; maxMs: number; p95Ms: number; meanMs: number; over50: number };

function sessionFile(): Buffer {
  const messages = longTranscript(MESSAGES);
  const zip = exportSessionFile({
    session: { id: 'long-session', title: 'Long session', createdAt: Date.UTC(2026, 0, 5), model: 'mock-model', provider: 'openai-compatible' },
    messages,
    workspace: new Map([['README.md', new TextEncoder().encode('# long\n')]]),
  });
  return Buffer.from(zip);
}

/** Runs `scroll` while recording requestAnimationFrame intervals in the page. */
async function frameTimesDuring(page: Page, scroll: () => Promise<void>): Promise<FrameStats> {
  await page.evaluate(() => {
    const state = { last: performance.now(), gaps: [] as number[], running: true };
    (window as unknown as { __frames: typeof state }).__frames = state;
    const loop = (now: number) => {
      state.gaps.push(now - state.last);
      state.last = now;
      if (state.running) requestAnimationFrame(loop);
    };
    requestAnimationFrame(loop);
  });
  await scroll();
  const gaps = await page.evaluate(() => {
    const state = (window as unknown as { __frames: { gaps: number[]; running: boolean } }).__frames;
    state.running = false;
    return state.gaps.slice(1);
  });
  const sorted = [...gaps].sort((a, b) => a - b);
  return {
    frames: gaps.length,
    maxMs: sorted[sorted.length - 1] ?? 0,
    p95Ms: sorted[Math.floor(sorted.length * 0.95)] ?? 0,
    meanMs: gaps.reduce((a, b) => a + b, 0) / Math.max(1, gaps.length),
    over50: gaps.filter((g) => g > 50).length,
  };
}

const format = (s: FrameStats) =>
  `${s.frames} frames, mean ${s.meanMs.toFixed(1)} ms, p95 ${s.p95Ms.toFixed(1)} ms, max ${s.maxMs.toFixed(0)} ms, ${s.over50} over 50 ms`;

test('a 2,000-message session is windowed and scrolls smoothly to the top and back', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('runtime-status')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  await page.getByTestId('import-session').setInputFiles({ name: 'Long session.conch.zip', mimeType: 'application/zip', buffer: sessionFile() });

  const messages = page.getByTestId('message');
  const log = page.getByRole('log', { name: 'Conversation' });
  // The session opens at its end.
  await expect(messages.filter({ hasText: /Follow-up \d+: thanks/ }).last()).toBeInViewport({ timeout: 15_000 });
  const inDom = await messages.count();
  console.log(`message elements in the DOM for ${MESSAGES} messages: ${inDom}`);
  expect(inDom).toBeGreaterThan(0);
  expect(inDom).toBeLessThan(150);

  // Wheel up to the very top, measuring frames on the way.
  await log.hover();
  const up = await frameTimesDuring(page, async () => {
    for (let step = 0; step < 400; step++) {
      await page.mouse.wheel(0, -4000);
      if (await log.evaluate((el) => el.scrollTop === 0)) break;
    }
  });
  console.log(`wheel to the top: ${format(up)}`);
  await expect(messages.filter({ hasText: 'Prompt 1: please look at module 1' })).toBeInViewport();
  expect(await messages.count()).toBeLessThan(150);
  await snapshot(page, 'long-session-top');

  // End jumps back to the last message; Home to the first again.
  await log.focus();
  const end = await frameTimesDuring(page, async () => {
    await page.keyboard.press('End');
    await expect(messages.filter({ hasText: /Follow-up \d+: thanks/ }).last()).toBeInViewport();
  });
  console.log(`End key to the bottom: ${format(end)}`);
  await page.keyboard.press('Home');
  await expect(messages.filter({ hasText: 'Prompt 1: please look at module 1' })).toBeInViewport();

  // Page down through a stretch of the middle by keyboard: answers keep appearing, the DOM stays small.
  const pages = await frameTimesDuring(page, async () => {
    for (let i = 0; i < 40; i++) await page.keyboard.press('PageDown');
  });
  console.log(`40 x PageDown: ${format(pages)}`);
  await expect(messages.filter({ hasText: /Answer \d+/ }).first()).toBeVisible();
  expect(await messages.count()).toBeLessThan(150);
  await snapshot(page, 'long-session-middle');

  for (const stats of [up, end, pages]) expect(stats.maxMs).toBeLessThan(500);
});
