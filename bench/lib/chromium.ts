// Chromium for the browser benches: Debian's build when present (this machine cannot download Playwright's own),
// with the flags that keep it quiet and comparable from run to run (no GPU, no background traffic or updates).
import { existsSync } from 'node:fs';
import { chromium, type Browser } from '@playwright/test';

const DEBIAN_CHROMIUM = '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Launches headless Chromium with the bench flags. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: existsSync(DEBIAN_CHROMIUM) ? DEBIAN_CHROMIUM : undefined,
    args: CHROMIUM_ARGS,
  });
}
