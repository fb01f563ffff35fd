// Chromium for the browser benches: the same build and flags as the e2e tests, so figures are comparable.
import { chromium, type Browser } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from '../../e2e/chromium';

/** Launches headless Chromium with the bench flags (and `extraArgs`, e.g. to accept a loopback mock's certificate). */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_EXECUTABLE, args: [...CHROMIUM_ARGS, ...extraArgs] });
}
