// The checks of the manual WebContainer check page, each against a booted WebContainer runtime, through the same
// pieces the app uses (the Files tab's tree, the Preview's server list, the workspace zip and patch, the restore).
// The ones that need no network and no browser also run in the unit tests against the WebContainer double.

import { unzipSync } from 'fflate';
import { toModelText } from '../../../runtime/exec/model-text';
import type { Runtime } from '../../../runtime/types';
import type { WebContainerRuntime } from '../../../runtime/webcontainer/webcontainer';
import { Workspace } from '../../../runtime/workspace/workspace';
import { SNAPSHOT_EXCLUDE, snapshotOfZip, unzipToMap } from '../../../store';
import { FileTreeState } from '../../workspace/file-tree.svelte';
import { PreviewServers } from '../preview-servers.svelte';
import { waitFor, withDeadline, type WebContainerCheck } from './runner';
import { changesPatch, exportWorkspaceZip, workspaceChanges } from '../../workspace/workspace-io';
import { WorkspaceSnapshots } from '../../session/workspace-snapshots';

export type WebContainerCheckContext = {
  runtime: WebContainerRuntime;
  /** A fresh embedded runtime, to compare zip layouts with. */
  createEmbedded: () => Runtime | Promise<Runtime>;
  /** Shows `url` in a preview iframe on the page; returns a function that removes it. */
  openPreview?: (url: string) => () => void;
  /** Shorter limits for the unit tests; the page uses the numbers. */
  limits?: { busyTimeoutMs?: number; stopAfterMs?: number };
};

type Check = WebContainerCheck<WebContainerCheckContext>;

const strategy: Check = {
  id: 'exec-strategy',
  title: 'Which way the agent runs commands (jsh --osc session, or the wrapper)',
  async run({ runtime }) {
    const report = await runtime.execStrategy();
    const detail = `${report.strategy}; --osc session: ${report.osc.detail} (${report.osc.ms} ms); wrapper: ${report.wrapper.detail} (${report.wrapper.ms} ms)`;
    if (report.strategy === 'plain') throw new Error(`neither way passed the probe, so cd does not carry over: ${detail}`);
    return detail;
  },
};

const nodeAndNpm: Check = {
  id: 'node-npm',
  title: '`node -v && npm -v` exits 0 with clean output (no escape codes, no marker)',
  async run({ runtime }) {
    const result = await runtime.exec('node -v && npm -v', { timeoutMs: 60_000 });
    if (result.exitCode !== 0) throw new Error(`exit code ${result.exitCode}: ${result.output}`);
    if (!/^v\d+\.\d+\.\d+\n\d+\.\d+\.\d+\n$/.test(result.output)) throw new Error(`unexpected output ${JSON.stringify(result.output)}`);
    return result.output.trim().replace('\n', ', npm ');
  },
};

const cdThenPwd: Check = {
  id: 'cd-persists',
  title: '`cd src` in one call, then `pwd` in the next, shows src',
  async run({ runtime }) {
    await runtime.mkdir('src');
    const cd = await runtime.exec('cd src');
    if (cd.exitCode !== 0) throw new Error(`cd src exited ${cd.exitCode}: ${cd.output}`);
    const pwd = await runtime.exec('pwd');
    await runtime.exec('cd ..');
    if (pwd.output !== `${runtime.workdir}/src\n`) throw new Error(`pwd printed ${JSON.stringify(pwd.output)}`);
    return pwd.output.trim();
  },
};

const exitCodes: Check = {
  id: 'exit-codes',
  title: 'Exit codes of `false`, `exit 3` and `false | true`',
  async run({ runtime }) {
    const seen = [];
    for (const [command, expected] of [['false', 1], ['exit 3', 3], ['false | true', 0]] as const) {
      const { exitCode } = await runtime.exec(command);
      seen.push(`${command} → ${exitCode}`);
      if (exitCode !== expected) throw new Error(`${seen.join(', ')} (expected ${expected})`);
    }
    return seen.join(', ');
  },
};

const timeoutAndStop: Check = {
  id: 'timeout-and-stop',
  title: '`node -e "while(1){}"` is killed at a 5 s timeout, Stop ends a 30 s wait, and the shell works after both',
  async run({ runtime, limits }) {
    const busyTimeoutMs = limits?.busyTimeoutMs ?? 5000;
    let started = Date.now();
    const busy = await runtime.exec('node -e "while(1){}"', { timeoutMs: busyTimeoutMs });
    const busyMs = Date.now() - started;
    if (busy.exitCode !== null || !busy.output.includes('timed out')) throw new Error(`the busy loop was not stopped: ${JSON.stringify(busy)}`);
    const stop = new AbortController();
    const stopAfterMs = limits?.stopAfterMs ?? 1000;
    const timer = setTimeout(() => stop.abort(), stopAfterMs);
    started = Date.now();
    const waiting = await runtime.exec(`node -e "setTimeout(() => {}, 30000)"`, { signal: stop.signal });
    clearTimeout(timer);
    const stopMs = Date.now() - started;
    if (waiting.exitCode !== null || !waiting.output.includes('aborted')) throw new Error(`Stop did not end the wait: ${JSON.stringify(waiting)}`);
    const after = await runtime.exec('echo usable');
    if (after.output !== 'usable\n') throw new Error(`after the stops the shell printed ${JSON.stringify(after.output)}`);
    return `timeout took ${busyMs} ms, Stop took ${stopMs - stopAfterMs} ms after pressing; the shell still answers`;
  },
};

const npxPrompt: Check = {
  id: 'npx-no-prompt',
  title: 'npx does not hang on "Ok to proceed? (y)"',
  async run({ runtime }) {
    await runtime.writeFile('check-npx-tool/package.json', JSON.stringify({ name: 'conch-check-tool', version: '1.0.0', bin: { 'conch-check-tool': 'index.js' } }));
    await runtime.writeFile('check-npx-tool/index.js', '#!/usr/bin/env node\nconsole.log("the tool ran");\n');
    const result = await runtime.exec('npx --package=./check-npx-tool conch-check-tool', { timeoutMs: 90_000 });
    if (result.exitCode !== 0 || !result.output.includes('the tool ran')) throw new Error(`npx: ${JSON.stringify(result)}`);
    return 'npx installed and ran a package without asking';
  },
};

const terminal: Check = {
  id: 'terminal',
  title: "The Terminal tab's interactive jsh resizes and takes Ctrl+C",
  async run({ runtime }) {
    const shell = await runtime.openShell({ cols: 80, rows: 24 });
    let screen = '';
    const reader = shell.output.getReader();
    void (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        screen += value;
      }
    })();
    const writer = shell.input.getWriter();
    const shown = () => toModelText(screen);
    const prompts = () => screen.split('\x1b]654;prompt\x07').length - 1;
    // Types a line once jsh shows its next prompt (what is typed while a program ends may be dropped).
    let promptsSeen = 0;
    const type = async (line: string, what: string) => {
      await waitFor(() => prompts() > promptsSeen, 15_000, `a prompt before ${what}`);
      promptsSeen = prompts();
      await writer.write(line);
    };
    try {
      if (!(await withDeadline(shell.interactive, 15_000, 'jsh did not start'))) throw new Error('jsh never said it was interactive (no OSC 654)');
      shell.resize({ cols: 120, rows: 40 });
      await type('node -e "console.log(\'columns=\' + process.stdout.columns)"\n', 'printing the width');
      await waitFor(() => /\ncolumns=\d+/.test(shown()), 15_000, 'printing the terminal width');
      const columns = /\ncolumns=(\d+)/.exec(shown())?.[1];
      if (columns !== '120') throw new Error(`after resizing to 120 columns a program saw ${columns}`);
      await type('node -e "console.log(\'running\'); setInterval(() => {}, 1000)"\n', 'a long program');
      await waitFor(() => shown().includes('\nrunning\n'), 15_000, 'starting a long program');
      await writer.write('\x03');
      await type('echo after-ctrl-c\n', 'the command after Ctrl+C');
      await waitFor(() => shown().includes('\nafter-ctrl-c\n'), 15_000, 'a command after Ctrl+C');
      return 'resized to 120 columns; Ctrl+C stopped a running program and the shell took the next command';
    } finally {
      shell.kill();
    }
  },
};

const filesAppear: Check = {
  id: 'files-tab-updates',
  title: 'Files written by the agent or the terminal appear in the Files tab',
  async run({ runtime }) {
    const tree = new FileTreeState(runtime);
    const stop = tree.start();
    const listed = (name: string) => (tree.children.get('') ?? []).some((entry) => entry.name === name);
    const shell = await runtime.openShell({ cols: 80, rows: 24 });
    void shell.output.pipeTo(new WritableStream());
    try {
      await watchIsLive(runtime);
      await runtime.exec('echo agent > check-agent-wrote.txt');
      await waitFor(() => listed('check-agent-wrote.txt'), 10_000, 'the agent’s file showing in the Files tab');
      await shell.input.getWriter().write('echo terminal > check-terminal-wrote.txt\n');
      await waitFor(() => listed('check-terminal-wrote.txt'), 15_000, 'the terminal’s file showing in the Files tab');
      return 'both files showed up';
    } finally {
      shell.kill();
      stop();
    }
  },
};

/**
 * Resolves once the runtime's watch reports changes: a container registers its watcher asynchronously, and a change
 * made before that is never reported (the real API and the double alike), which is not what this check is about.
 */
async function watchIsLive(runtime: Runtime): Promise<void> {
  let reported = false;
  const stop = runtime.watch((paths) => (reported ||= paths.includes('check-watch-ready.txt')));
  try {
    for (let attempt = 0; attempt < 20 && !reported; attempt++) {
      await runtime.exec(`echo ${attempt} > check-watch-ready.txt`); // a command's write: only the watch can see it
      await waitFor(() => reported, 500, 'the watch').catch(() => undefined);
    }
    if (!reported) throw new Error('the workspace watch never reported a change');
  } finally {
    stop();
    await runtime.rm('check-watch-ready.txt').catch(() => undefined);
  }
}

const npmInstall: Check = {
  id: 'npm-install',
  title: '`npm init -y && npm i left-pad`, then `ls node_modules`; the Files tab shows node_modules, collapsed',
  async run({ runtime }) {
    const started = Date.now();
    const install = await runtime.exec('npm init -y && npm i left-pad', { timeoutMs: 180_000 });
    if (install.exitCode !== 0) throw new Error(`npm exited ${install.exitCode}: ${install.output.slice(-1000)}`);
    const installMs = Date.now() - started;
    const ls = await runtime.exec('ls node_modules');
    if (!ls.output.includes('left-pad')) throw new Error(`ls node_modules printed ${JSON.stringify(ls.output)}`);
    const tree = new FileTreeState(runtime);
    const stop = tree.start();
    try {
      await waitFor(() => (tree.children.get('') ?? []).some((e) => e.name === 'node_modules' && e.type === 'dir'), 10_000, 'node_modules in the Files tab');
      if (tree.expanded.has('node_modules')) throw new Error('node_modules is expanded in the Files tab');
    } finally {
      stop();
    }
    return `installed in ${installMs} ms; node_modules listed and collapsed`;
  },
};

const restoreKeepsNodeModules: Check = {
  id: 'restore-node-modules',
  title: 'Restoring a checkpoint keeps node_modules',
  async run({ runtime }) {
    if ((await runtime.stat('node_modules')) === null) await runtime.writeFile('node_modules/conch-check/index.js', 'module.exports = 1;\n');
    const checkpoint = await runtime.exportZip({ exclude: SNAPSHOT_EXCLUDE.flatMap((name) => [`${name}/**`, `**/${name}/**`]) });
    // The checkpoint's folders and files are all held in memory: the restore never reads storage.
    const { root, objects } = await snapshotOfZip(checkpoint);
    const snapshots = new WorkspaceSnapshots(Workspace.of(runtime), { tree: async (id) => Promise.reject(new Error(`folder ${id} is not in the checkpoint`)), blobs: async () => new Map() });
    snapshots.hold(objects);
    await snapshots.restore(runtime, root);
    if ((await runtime.stat('node_modules')) === null) throw new Error('node_modules is gone after the restore');
    return 'node_modules is still there';
  },
};

const SERVER_SOURCE = `import http from 'node:http';
http.createServer((request, response) => {
  if (request.url === '/error') {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end('<script>throw new Error("conch check: thrown in the preview")</script>');
    return;
  }
  response.writeHead(200, { 'content-type': 'text/plain', 'access-control-allow-origin': '*', 'cross-origin-resource-policy': 'cross-origin' });
  response.end('hello from port 3000');
}).listen(3000);
`;

const preview: Check = {
  id: 'preview',
  title: 'A tiny HTTP server on port 3000 appears in Preview and serves its text; an error thrown in the preview shows as a notice',
  async run({ runtime, openPreview }) {
    const servers = new PreviewServers();
    const detach = servers.attach(runtime.container);
    await runtime.writeFile('check-server.mjs', SERVER_SOURCE);
    const server = await runtime.container.spawn('node', ['check-server.mjs']);
    void server.output.pipeTo(new WritableStream());
    let closePreview: (() => void) | undefined;
    try {
      await waitFor(() => servers.servers.some((s) => s.port === 3000), 30_000, 'port 3000 in the Preview');
      const url = servers.servers.find((s) => s.port === 3000)!.url;
      const body = await (await fetch(url)).text();
      if (body !== 'hello from port 3000') throw new Error(`the server answered ${JSON.stringify(body.slice(0, 200))}`);
      if (!openPreview) throw new Error('served its text, but there is no page here to show the preview in');
      closePreview = openPreview(`${url.replace(/\/$/, '')}/error`);
      await waitFor(() => servers.notices.some((n) => n.includes('thrown in the preview')), 20_000, 'the preview error notice');
      return `served at ${url}; the preview's error became a notice`;
    } finally {
      closePreview?.();
      server.kill();
      detach();
    }
  },
};

const FIXTURE: Record<string, string | Uint8Array> = {
  'layout-check/src/index.ts': 'export const answer = 42;\n',
  'layout-check/README.md': '# Layout\n',
  'layout-check/.env.example': 'KEY=value\n',
  'layout-check/assets/bytes.bin': Uint8Array.from({ length: 256 }, (_, i) => i),
  'layout-check/node_modules/dep/index.js': 'module.exports = 1;\n',
};

const zipLayout: Check = {
  id: 'zip-layout',
  title: 'Export workspace, download patch and a session snapshot give the same layout as the embedded runtime',
  async run({ runtime, createEmbedded }) {
    const embedded = await createEmbedded();
    try {
      const sides = [runtime as Runtime, embedded];
      for (const side of sides) {
        for (const [path, data] of Object.entries(FIXTURE)) await side.writeFile(path, data);
        await side.mkdir('layout-check/empty');
      }
      const zips = await Promise.all(sides.map(async (side) => layoutOf(await exportWorkspaceZip(side))));
      if (zips[0] !== zips[1]) throw new Error(`the workspace zips differ:\nWebContainer:\n${zips[0]}\nembedded:\n${zips[1]}`);
      const baselines = await Promise.all(sides.map(async (side) => unzipToMap(await exportWorkspaceZip(side))));
      for (const side of sides) await side.writeFile('layout-check/src/index.ts', 'export const answer = 43;\n');
      const patches = await Promise.all(
        sides.map(async (side, i) => changesPatch((await workspaceChanges(side, baselines[i])).filter((c) => c.path.startsWith('layout-check/')))),
      );
      if (patches[0] !== patches[1]) throw new Error(`the patches differ:\n${patches[0]}\n---\n${patches[1]}`);
      const snapshots = await Promise.all(sides.map(async (side) => layoutOf(await side.exportZip())));
      if (snapshots[0] !== snapshots[1]) throw new Error(`the snapshots differ:\n${snapshots[0]}\n---\n${snapshots[1]}`);
      return `${zips[0].split('\n').length} entries alike; patches alike`;
    } finally {
      await runtime.rm('layout-check', { recursive: true }).catch(() => undefined);
      await embedded.dispose();
    }
  },
};

/** The entries under layout-check/ of a zip, one line each: the name and, for a file, its bytes (folders end with /). */
function layoutOf(zip: Uint8Array): string {
  const entries = unzipSync(zip);
  const names = Object.keys(entries).filter((name) => name.startsWith('layout-check/')).sort();
  return names.map((name) => (name.endsWith('/') ? name : `${name} [${entries[name].join(',')}]`)).join('\n');
}

/** Every check after the boot, in the order the page runs them (the reload check is the page's own). */
export const WEBCONTAINER_CHECKS: readonly Check[] = [
  strategy,
  nodeAndNpm,
  cdThenPwd,
  exitCodes,
  timeoutAndStop,
  npxPrompt,
  terminal,
  filesAppear,
  zipLayout,
  npmInstall,
  restoreKeepsNodeModules,
  preview,
];

/** The checks that need neither the network nor a browser page (the unit tests run them against the double). */
export const OFFLINE_CHECK_IDS: readonly string[] = [
  'exec-strategy',
  'node-npm',
  'cd-persists',
  'exit-codes',
  'timeout-and-stop',
  'npx-no-prompt',
  'terminal',
  'files-tab-updates',
  'zip-layout',
];
