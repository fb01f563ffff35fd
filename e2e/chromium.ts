// The browser the e2e tests and the browser benches launch: Debian's Chromium when present (this machine cannot
// download Playwright's own build), Playwright's otherwise, with flags that keep it quiet offline (no GPU, no
// background traffic, updates or sync).
import { existsSync } from 'node:fs';

const DEBIAN_CHROMIUM = '/usr/bin/chromium';

export const CHROMIUM_EXECUTABLE: string | undefined = existsSync(DEBIAN_CHROMIUM) ? DEBIAN_CHROMIUM : undefined;

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
