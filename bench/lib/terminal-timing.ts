// Timing a command in the app's terminal as a person waits for it: from the Enter key to the frame that shows the
// command's end marker. Shared by the node-figures flow and the Chromium checkers bench.
import type { Page } from '@playwright/test';

/**
 * Types `command; echo <marker>-$((40+2))` into the focused terminal and returns the milliseconds from Enter to the
 * frame showing `<marker>-42` (the shell computes it, so the typed line itself never matches), or -1 after
 * `timeoutMs`.
 */
export async function timeInTerminal(page: Page, command: string, marker: string, timeoutMs = 120_000): Promise<number> {
  await page.keyboard.type(`${command}; echo ${marker}-$((40 + 2))`);
  // A string, not a function: a bench runs under tsx, whose name-keeping helper would not exist in the page.
  const shown = page.evaluate(`new Promise((resolve) => {
    const started = performance.now();
    const look = () => {
      const rows = document.querySelectorAll('[data-testid="terminal-shell"] .xterm-rows > div');
      if (Array.from(rows).some((row) => row.textContent?.trim() === ${JSON.stringify(`${marker}-42`)})) resolve(performance.now() - started);
      else if (performance.now() - started > ${timeoutMs}) resolve(-1);
      else requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  })`) as Promise<number>;
  await page.keyboard.press('Enter');
  return shown;
}
