// The checkers bench in this Chromium (issue 26: "the benchmarks' figures printed in a run in this Chromium"):
// `npx tsc --noEmit`, `npx prettier --check .` and `npx eslint .` on the 50-file project, typed into the built app's
// terminal as a person would, against this machine's Node in the same run. Each row is timed from Enter to the frame
// showing the end marker, less the terminal's own round trip (an `echo`); output goes to a file, so drawing it is
// not timed (Node's side is not drawn either). Rows: the browser engine's first run (it transforms the ES modules it
// meets), its second, QuickJS (`node --engine=quickjs` on the tool's bin), and after a page reload: a new runtime,
// which reinstalls node_modules from npm's cache in IndexedDB and finds there the modules that needed a full parse.
// Agreement is the exit code and the number of findings. Printed, never asserted.
//
// Packages come through a loopback proxy of registry.npmjs.org that keeps them on disk (node_modules/.cache).
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { zipSync } from 'fflate';
import { ensureAppBuild } from './lib/app-build';
import { SOURCE_FILES } from './lib/checkers-project';
import { CACHE_DIR, projectFiles, realNodeProject, runReal, TOOLS, VERSIONS, type Tool } from './lib/checkers-tools';
import { launchChromium } from './lib/chromium';
import { startRegistryProxy } from './lib/registry-proxy';
import { startPreviewServer } from './lib/servers';
import { timeInTerminal } from './lib/terminal-timing';

const TOOL_TIMEOUT_MS = 10 * 60_000;

/** Each tool's findings counted by the sandbox's own grep, from its output file (the same lines the Node bench compares). */
const COUNT: Record<string, string> = {
  tsc: "grep -c 'error TS[0-9]'",
  prettier: "grep -v 'Code style issues' | grep -c '^\\[warn\\] '",
  eslint: "grep -cE '^ +[0-9]+:[0-9]+ +(error|warning)'",
};
const QUICKJS_BIN: Record<string, string> = { tsc: 'typescript/bin/tsc', prettier: 'prettier/bin/prettier.cjs', eslint: 'eslint/bin/eslint.js' };
const NODE_FINDINGS: Record<string, (output: string) => number> = {
  tsc: (out) => out.split('\n').filter((line) => /error TS\d/.test(line)).length,
  prettier: (out) => out.split('\n').filter((line) => line.startsWith('[warn] ') && !line.includes('Code style issues')).length,
  eslint: (out) => out.split('\n').filter((line) => /^ +\d+:\d+ +(error|warning)/.test(line)).length,
};

type Timed = { ms: number; exitCode: number; findings: number };

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
let marks = 0;

/** Runs `command` in the terminal, its output and exit code kept in files; its time less the round trip, and what it found. */
async function run(page: Page, tool: Tool, command: string, echoMs: number): Promise<Timed> {
  const ms = await timeInTerminal(page, `clear; ${command} > /tmp/${tool.name}.out 2>&1; echo $? > /tmp/${tool.name}.code`, `DONE${marks++}`, TOOL_TIMEOUT_MS);
  if (ms < 0) throw new Error(`${command} did not finish in ${TOOL_TIMEOUT_MS / 60_000} minutes`);
  const summary = `S${marks++}`;
  await timeInTerminal(page, `clear; echo "${summary} $(cat /tmp/${tool.name}.code) $(cat /tmp/${tool.name}.out | ${COUNT[tool.name]})"`, `DONE${marks++}`);
  const line = (await page.getByTestId('terminal-shell').locator('.xterm-rows').innerText()).split('\n').find((text) => text.trim().startsWith(`${summary} `)) ?? '';
  const [, exitCode, findings] = line.trim().split(/\s+/).map(Number);
  return { ms: ms - echoMs, exitCode, findings };
}

async function openTerminal(page: Page): Promise<number> {
  await page.getByRole('tab', { name: 'Terminal' }).click();
  const shell = page.getByTestId('terminal').getByTestId('terminal-shell');
  await shell.locator('.xterm-rows').getByText('$ ').first().waitFor({ timeout: 30_000 });
  await shell.click();
  const echoes: number[] = [];
  for (let i = 0; i < 3; i++) echoes.push(await timeInTerminal(page, 'echo warm', `ECHO${marks++}`));
  return median(echoes);
}

const files = projectFiles();
console.log(`project: ${SOURCE_FILES} TypeScript files; ${Object.entries(VERSIONS).map(([name, version]) => `${name}@${version}`).join(', ')}`);
const realDir = realNodeProject(files);
const proxy = await startRegistryProxy(join(CACHE_DIR, 'registry-proxy'));
const build = await ensureAppBuild();
const server = await startPreviewServer(build.outDir);
const browser = await launchChromium();
try {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await page.goto(server.url);
  await page.locator('[data-testid="runtime-status"][data-state="ready"]').waitFor({ timeout: 60_000 });
  console.log(`node engine in the app: ${await page.getByTestId('node-engine').getAttribute('data-engine')} (${(await page.getByTestId('node-engine').textContent())?.trim().split('.')[0]})`);
  await page.getByTestId('settings-open').click();
  await page.getByTestId('npm-registry').fill(proxy.url);
  await page.getByTestId('settings-save').click();
  await page.getByTestId('settings-save').waitFor({ state: 'hidden' });
  const zip = zipSync(Object.fromEntries(Object.entries(files).map(([path, content]) => [`inventory-main/${path}`, new TextEncoder().encode(content)])));
  await page.getByTestId('import-zip').setInputFiles({ name: 'inventory.zip', mimeType: 'application/zip', buffer: Buffer.from(zip) });
  await page.locator('[data-testid="import-result"][data-kind="success"]').waitFor({ timeout: 60_000 });

  let echo = await openTerminal(page);
  const install = await timeInTerminal(page, 'clear; npm install > /tmp/install.out 2>&1', `INSTALL${marks++}`, TOOL_TIMEOUT_MS);
  console.log(`npm install in the app: ${(install - echo).toFixed(0)} ms (registry proxy: ${proxy.counts.served} requests, ${proxy.counts.fetched} from registry.npmjs.org); terminal round trip ${echo.toFixed(0)} ms`);

  const real = new Map(TOOLS.map((tool) => [tool.name, runReal(realDir, tool)]));
  const line = (label: string, tool: Tool, timed: Timed, target = '') => {
    const node = real.get(tool.name)!;
    const same = timed.exitCode === node.exitCode && timed.findings === NODE_FINDINGS[tool.name](node.output);
    console.log(`  ${label.padEnd(20)} ${timed.ms.toFixed(0).padStart(7)} ms   ratio ${(timed.ms / node.ms).toFixed(1)}x${target}   ${same ? 'agree' : 'DIFFER'} (exit ${timed.exitCode}, ${timed.findings} findings; Node exit ${node.exitCode}, ${NODE_FINDINGS[tool.name](node.output)})`);
  };
  for (const tool of TOOLS) {
    console.log(`\n${tool.command}: Node ${real.get(tool.name)!.ms.toFixed(0)} ms (median of 3)`);
    line('browser', tool, await run(page, tool, tool.command, echo), ' (target <= 2.5x)');
    line('browser, 2nd', tool, await run(page, tool, tool.command, echo), ' (target <= 2.5x)');
    line('quickjs', tool, await run(page, tool, `node --engine=quickjs node_modules/${QUICKJS_BIN[tool.name]} ${tool.args.join(' ')}`, echo));
  }

  await page.reload();
  await page.locator('[data-testid="runtime-status"][data-state="ready"]').waitFor({ timeout: 60_000 });
  echo = await openTerminal(page);
  const reinstall = await timeInTerminal(page, 'clear; npm install > /tmp/install.out 2>&1', `INSTALL${marks++}`, TOOL_TIMEOUT_MS);
  console.log(`\nafter a reload: npm install ${(reinstall - echo).toFixed(0)} ms (from IndexedDB), then each tool's first run in the new runtime:`);
  for (const tool of TOOLS) line(tool.command, tool, await run(page, tool, tool.command, echo), ' (target <= 2.5x)');
} finally {
  await browser.close();
  await server.close();
  await proxy.close();
  rmSync(realDir, { recursive: true, force: true });
}
process.exit(0);
