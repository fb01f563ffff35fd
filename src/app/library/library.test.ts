import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { createScriptedStreamFn, toolCall, type ScriptedTurnInput } from '../../ai/providers/scripted';
import { testModel } from '../../ai/testing/test-model';
import { createEmbeddedRuntime } from '../../runtime/embedded';
import type { Runtime } from '../../runtime/types';
import { Workspace } from '../../runtime/workspace/workspace';
import { unzipSync } from 'fflate';
import { createSessionStore, openSessionEvents, SessionFileError, zipFromFiles, type SessionLock } from '../../store';
import { createCodingTools } from '../../tools';
import { SessionController } from '../session/controller.svelte';
import { SessionLibrary, type SessionHost } from './library.svelte';
import { buildExport } from './sharing';
import { defaultSettings, type Settings } from '../settings/settings';

const model = testModel({ provider: 'mock', id: 'mock-model' });
const enc = new TextEncoder();
const dec = new TextDecoder();

let counter = 0;
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

type Setup = { library: SessionLibrary; runtime: Runtime; script(turns: ScriptedTurnInput[]): void };

type SetupOptions = {
  prefix?: string;
  locks?: Map<string, boolean>;
  channel?: string;
  /** The sandbox as the page gets it (default: ready at once). */
  sandbox?: () => Promise<Runtime>;
  runtime?: Runtime;
};

async function setup(options: SetupOptions = {}): Promise<Setup> {
  const prefix = options.prefix ?? `library-${counter++}-`;
  const runtime = options.runtime ?? (await createEmbeddedRuntime());
  const settings: Settings = { ...defaultSettings(), apiKey: 'sk-ant-this-is-my-own-secret-key-0001' };
  let streamFn = createScriptedStreamFn([]);
  // The page's workspace: the sandbox is attached when it is ready, or fails with the reason.
  const workspace = new Workspace();
  (options.sandbox ?? (async () => runtime))().then(
    (ready) => workspace.attach(ready),
    (error: Error) => workspace.fail(error),
  );
  const host: SessionHost = {
    workspace,
    createController: (init) =>
      new SessionController({ ...init, workspace, tools: createCodingTools(workspace), getSettings: () => settings, resolveModel: () => model, streamFn: (...a) => streamFn(...a), scheduleUpdate: (fn) => queueMicrotask(fn) }),
  };
  const events = openSessionEvents(options.channel ?? `test-${prefix}`);
  let library: SessionLibrary | null = null;
  const store = createSessionStore({ prefix, onChange: (c) => { events.publish(c); library?.refreshSoon(); } });
  const locks = options.locks;
  const acquireLock = async (id: string): Promise<SessionLock | null> => {
    if (!locks) return { release() {} };
    if (locks.get(id)) return null;
    locks.set(id, true);
    return { release: () => locks.set(id, false) };
  };
  library = new SessionLibrary({ store, host, events, acquireLock });
  cleanups.push(() => { library?.stop(); store.close(); });
  return { library, runtime, script: (turns) => (streamFn = createScriptedStreamFn(turns)) };
}

const read = async (runtime: Runtime, path: string) => dec.decode(await runtime.readFile(path));
const names = async (runtime: Runtime) => (await runtime.readdir(runtime.workdir)).map((e) => e.name).sort();

async function runPrompt(s: Setup, prompt: string, turns: ScriptedTurnInput[]) {
  s.script(turns);
  s.library.current!.send(prompt);
  await s.library.current!.idle();
  await s.library.flush();
}

describe('SessionLibrary', () => {
  it('opens a new empty session on first start, and the same session (transcript and workspace) after a reload', async () => {
    const first = await setup({ prefix: 'reload-' });
    await first.library.start();
    expect(first.library.records).toHaveLength(1);
    await runPrompt(first, 'Write hello.txt', [{ content: [toolCall('write', { path: 'hello.txt', content: 'hi\n' })] }, { content: 'Done.' }]);
    const id = first.library.current!.id;
    expect(first.library.currentRecord?.title).toBe('Write hello.txt');
    first.library.stop();

    const second = await setup({ prefix: 'reload-' });
    await second.library.start();
    expect(second.library.current?.id).toBe(id);
    expect(second.library.current?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'toolResult', 'assistant']);
    expect(await read(second.runtime, 'hello.txt')).toBe('hi\n');
    expect(second.library.records).toHaveLength(1);
  });

  it('switching sessions swaps the workspace and keeps each one', async () => {
    const s = await setup();
    await s.library.start();
    await runPrompt(s, 'make a', [{ content: [toolCall('write', { path: 'a.txt', content: 'A' })] }, { content: 'ok' }]);
    const a = s.library.current!.id;
    await s.library.newSession();
    expect(await names(s.runtime)).toEqual([]);
    await runPrompt(s, 'make b', [{ content: [toolCall('write', { path: 'b.txt', content: 'B' })] }, { content: 'ok' }]);
    await s.library.open(a);
    expect(await names(s.runtime)).toEqual(['a.txt']);
    expect(s.library.current?.messages[0]).toMatchObject({ role: 'user', content: 'make a' });
    expect(s.library.records.map((r) => r.title).sort()).toEqual(['make a', 'make b']);
  });

  it('refuses to switch while the agent runs, and says why', async () => {
    const s = await setup();
    await s.library.start();
    s.script([{ content: [toolCall('bash', { command: 'sleep 0.3' })] }, { content: 'ok' }]);
    s.library.current!.send('slow');
    await s.library.newSession();
    expect(s.library.notice).toMatch(/Stop it first/);
    await s.library.current!.idle();
  });

  it('forks from a user message: earlier transcript, that checkpoint’s workspace, the prompt back in the box', async () => {
    const s = await setup();
    await s.library.start();
    await s.runtime.writeFile('a.txt', 'original');
    await runPrompt(s, 'first', [{ content: [toolCall('write', { path: 'a.txt', content: 'after first' })] }, { content: 'ok' }]);
    await runPrompt(s, 'second', [{ content: [toolCall('write', { path: 'a.txt', content: 'after second' })] }, { content: 'ok' }]);
    const parent = s.library.current!.id;
    const secondSeq = s.library.current!.messages.findIndex((m) => m.role === 'user' && m.content === 'second');
    expect(s.library.checkpoints).toEqual([0, secondSeq]);

    await s.library.fork(secondSeq);
    const fork = s.library.current!;
    expect(fork.id).not.toBe(parent);
    expect(fork.messages).toHaveLength(secondSeq);
    expect(fork.draft).toBe('second');
    expect(await read(s.runtime, 'a.txt')).toBe('after first');

    await s.library.open(parent);
    await s.library.fork(0);
    expect(s.library.current!.messages).toHaveLength(0);
    expect(await read(s.runtime, 'a.txt')).toBe('original');
  });

  it('restores the workspace to a checkpoint, keeps the transcript, and can undo', async () => {
    const s = await setup();
    await s.library.start();
    await runPrompt(s, 'edit', [{ content: [toolCall('write', { path: 'x.txt', content: 'new' })] }, { content: 'ok' }]);
    await s.library.restore.toCheckpoint(0);
    expect(await names(s.runtime)).toEqual([]);
    expect(s.library.current!.messages).toHaveLength(4);
    await s.library.restore.undo();
    expect(await read(s.runtime, 'x.txt')).toBe('new');
  });

  it('deletes only after confirmation and opens another session in place of the deleted one', async () => {
    const s = await setup();
    await s.library.start();
    await runPrompt(s, 'keep me', [{ content: 'ok' }]);
    const keep = s.library.current!.id;
    await s.library.newSession();
    await runPrompt(s, 'delete me', [{ content: 'ok' }]);
    const doomed = s.library.current!.id;
    s.library.requestDelete(doomed);
    s.library.cancelDelete();
    expect(s.library.records).toHaveLength(2);
    s.library.requestDelete(doomed);
    expect(s.library.pendingDelete?.title).toBe('delete me');
    await s.library.confirmDelete();
    expect(s.library.records.map((r) => r.id)).toEqual([keep]);
    expect(s.library.current?.id).toBe(keep);
  });

  it('renames, and searches by title', async () => {
    const s = await setup();
    await s.library.start();
    await runPrompt(s, 'first thing', [{ content: 'ok' }]);
    await s.library.rename(s.library.current!.id, 'Refactor the parser');
    expect(s.library.current!.title).toBe('Refactor the parser');
    await s.library.newSession();
    s.library.query = 'parser';
    expect(s.library.visible.map((r) => r.title)).toEqual(['Refactor the parser']);
    s.library.query = 'mock-model';
    expect(s.library.visible).toHaveLength(1);
  });

  it('searches message text too, keeps up as messages are stored, and opens a result at its message', async () => {
    const s = await setup();
    await s.library.start();
    await runPrompt(s, 'Why does the build fail?', [{ content: 'Because left-pad was unpublished.' }]);
    const padding = s.library.current!.id;
    await s.library.newSession();
    await runPrompt(s, 'Something else', [{ content: 'Sure.' }]);
    s.library.query = 'pad';
    await s.library.search.run();
    expect(s.library.search.results.map((m) => [m.record.id, m.hit?.seq])).toEqual([[padding, 1]]);
    expect(s.library.visible.map((r) => r.id)).toEqual([padding]);

    // A message stored while the search is on shows up in it.
    await runPrompt(s, 'and right-pad?', [{ content: 'Also fine.' }]);
    await s.library.search.run();
    expect(s.library.search.results.map((m) => m.hit?.seq)).toEqual([2, 1]);

    await s.library.openAt(padding, 1);
    expect(s.library.current!.id).toBe(padding);
    expect(s.library.reveal.request).toMatchObject({ sessionId: padding, seq: 1 });
  });

  it('opens a session that another tab holds read-only, and refuses to change it', async () => {
    const locks = new Map<string, boolean>();
    const owner = await setup({ prefix: 'shared-', locks });
    await owner.library.start();
    await runPrompt(owner, 'owned', [{ content: 'ok' }]);
    const other = await setup({ prefix: 'shared-', locks });
    await other.library.start();
    expect(other.library.current?.id).toBe(owner.library.current?.id);
    expect(other.library.readOnly).toBe(true);
    await other.library.restore.toCheckpoint(0);
    expect(other.library.notice).toMatch(/read-only/);
    await expect(other.library.transfer.importRepo({ kind: 'folder', name: 'x', entries: [] })).rejects.toThrow(/read-only/);
  });

  it('"New session" reuses the open session while nothing is in it, and starts another once something is', async () => {
    const s = await setup();
    await s.library.start();
    const blank = s.library.current!.id;
    await s.library.newSession();
    await s.library.newSession();
    expect(s.library.current!.id).toBe(blank);
    expect(await s.library.store.listSessions()).toHaveLength(1);

    // A file the person made, a name they gave, an imported repo, a message: each makes the session worth keeping.
    await s.runtime.writeFile(`${s.runtime.workdir}/sketch.txt`, 'x');
    await s.library.newSession();
    expect(s.library.current!.id).not.toBe(blank);
    const named = s.library.current!.id;
    await s.library.rename(named, 'Plans');
    await s.library.newSession();
    expect(s.library.current!.id).not.toBe(named);
    const imported = s.library.current!.id;
    await s.library.transfer.importRepo({ kind: 'folder', name: 'repo', entries: [{ path: 'a.txt', data: enc.encode('a') }] });
    await s.library.newSession();
    expect(s.library.current!.id).not.toBe(imported);
    await runPrompt(s, 'hello', [{ content: 'hi' }]);
    const talked = s.library.current!.id;
    await s.library.newSession();
    expect(s.library.current!.id).not.toBe(talked);
    const last = s.library.current!.id;
    await s.library.newSession();
    expect(s.library.current!.id).toBe(last);
    expect(await s.library.store.listSessions()).toHaveLength(5);
  });

  it('shows sessions created in another tab', async () => {
    const a = await setup({ prefix: 'tabs-', channel: 'tabs-channel' });
    const b = await setup({ prefix: 'tabs-', channel: 'tabs-channel' });
    await a.library.start();
    await b.library.start();
    const before = b.library.records.length;
    await a.library.rename(a.library.current!.id, 'Tab A work'); // a named session is not reused by "New session"
    await a.library.newSession();
    for (let i = 0; i < 100 && b.library.records.length === before; i++) await new Promise((r) => setTimeout(r, 20));
    expect(b.library.records.length).toBe(before + 1);
  });

  it('imports a repo as the baseline; a refused zip leaves the workspace as it was', async () => {
    const s = await setup();
    await s.library.start();
    await s.runtime.writeFile('mine.txt', 'keep');
    const bad = new Uint8Array([80, 75, 3, 4, 1, 2, 3]);
    await expect(s.library.transfer.importRepo({ kind: 'zip', name: 'bad.zip', data: bad })).rejects.toThrow();
    expect(await names(s.runtime)).toEqual(['mine.txt']);

    const repo = zipFromFiles(new Map([['repo-main/src/index.ts', enc.encode('export {}\n')], ['repo-main/README.md', enc.encode('# hi\n')]]));
    const result = await s.library.transfer.importRepo({ kind: 'zip', name: 'repo.zip', data: repo });
    expect(result).toMatchObject({ files: 2, strippedPrefix: 'repo-main/' });
    expect(await names(s.runtime)).toEqual(['README.md', 'src']);
    const baseline = await s.library.store.loadSnapshot(s.library.current!.id, 'baseline');
    expect(baseline).toBeDefined();
  });

  it('an imported repo is the first commit of the agent\'s git, also after a reload and in a session switched to', async () => {
    const first = await setup({ prefix: 'git-baseline-' });
    await first.library.start();
    const repo = zipFromFiles(new Map([['greeter-main/app.js', enc.encode('greet("Hello");\n')], ['greeter-main/README.md', enc.encode('# Greeter\n')]]));
    await first.library.transfer.importRepo({ kind: 'zip', name: 'greeter-main.zip', data: repo });
    const id = first.library.current!.id;
    await runPrompt(first, 'Be friendlier', [{ content: [toolCall('edit', { path: 'app.js', edits: [{ oldText: 'Hello', newText: 'Hi' }] })] }, { content: 'ok' }]);
    first.library.stop();

    // git never ran before the reload: the restored workspace has no .git, and git makes it from the stored baseline.
    const second = await setup({ prefix: 'git-baseline-' });
    await second.library.start();
    expect(second.library.current?.id).toBe(id);
    expect((await second.runtime.exec('git log --oneline')).output).toMatch(/^[0-9a-f]{7} Imported greeter-main\.zip\n$/);
    const diff = (await second.runtime.exec('git diff')).output;
    expect(diff.split('\n').filter((line) => /^[-+](?![-+])/.test(line))).toEqual(['-greet("Hello");', '+greet("Hi");']);

    // Another session started empty: no repository there; back in the first, the same one.
    await second.library.newSession();
    expect((await second.runtime.exec('git status')).output).toMatch(/not a git repository/);
    await second.library.open(id);
    expect((await second.runtime.exec('git status --short')).output).toBe(' M app.js\n');
  });

  it('leaves .git out of the Changes tab, the workspace download and the patch unless asked for', async () => {
    const s = await setup();
    await s.library.start();
    const repo = zipFromFiles(new Map([['app.js', enc.encode('one\n')]]));
    await s.library.transfer.importRepo({ kind: 'zip', name: 'app.zip', data: repo });
    await s.runtime.writeFile('app.js', 'two\n');
    await s.runtime.exec('git status');
    expect(await s.runtime.stat('.git/HEAD')).not.toBeNull();

    const { changes } = await s.library.transfer.changes();
    expect(changes.map((c) => c.path)).toEqual(['app.js']);
    const zipNames = async (includeGit: boolean) => Object.keys(unzipSync((await s.library.transfer.exportWorkspace({ includeGit })).data));
    expect(await zipNames(false)).toEqual(['app.js']);
    expect(await zipNames(true)).toEqual(expect.arrayContaining(['app.js', '.git/HEAD', '.git/index']));
    const patchText = async (includeGit: boolean) => dec.decode((await s.library.transfer.patch(changes, { includeGit })).data);
    expect(await patchText(false)).not.toContain('.git/');
    expect(await patchText(true)).toContain('diff --git a/.git/HEAD b/.git/HEAD');
    // History is kept where sessions are saved and shared (once the workspace's watch has reported git's writes).
    await s.runtime.exec('git commit -qam "Second line"');
    const head = dec.decode(await s.runtime.readFile('.git/refs/heads/main'));
    let saved: Record<string, Uint8Array> = {};
    for (let i = 0; i < 150 && dec.decode(saved['.git/refs/heads/main'] ?? new Uint8Array()) !== head; i++) {
      await new Promise((r) => setTimeout(r, 20));
      await s.library.flush();
      const latest = await s.library.store.loadSnapshot(s.library.current!.id, 'latest');
      saved = latest ? unzipSync(latest) : {};
    }
    expect(dec.decode(saved['.git/refs/heads/main'])).toBe(head);
    const prepared = await s.library.transfer.prepareExport([]);
    const file = await s.library.transfer.buildExport(prepared, [], 'session');
    expect(Object.keys(unzipSync(file.data))).toContain('workspace/.git/HEAD');
    await s.library.transfer.importSessionFile(file.data);
    expect((await s.runtime.exec('git log --oneline')).output).toMatch(/^[0-9a-f]{7} Second line\n[0-9a-f]{7} Imported app\.zip\n$/);
  });

  it('exports a session (own key always redacted) that imports as a new session with its workspace', async () => {
    const s = await setup();
    await s.library.start();
    const key = 'sk-ant-this-is-my-own-secret-key-0001';
    await runPrompt(s, `use ${key} please`, [{ content: [toolCall('write', { path: 'out.txt', content: 'result' })] }, { content: 'ok' }]);
    const source = s.library.current!.id;
    const prepared = await s.library.transfer.prepareExport([key]);
    expect(prepared.findings.some((f) => f.kind === 'known-secret')).toBe(true);
    const file = await buildExport(prepared, [], 'session');
    expect(file.fileName).toMatch(/\.conch\.zip$/);
    const html = await buildExport(prepared, [], 'html');
    expect(dec.decode(html.data)).not.toContain(key);

    await s.library.newSession();
    const imported = await s.library.transfer.importSessionFile(file.data);
    expect(imported.id).not.toBe(source);
    expect(s.library.current?.id).toBe(imported.id);
    expect(JSON.stringify(s.library.current?.messages)).not.toContain(key);
    expect(await read(s.runtime, 'out.txt')).toBe('result');

    const broken = zipFromFiles(new Map([['session.jsonl', enc.encode('{"type":"header"}\n')]]));
    const count = s.library.records.length;
    await expect(s.library.transfer.importSessionFile(broken)).rejects.toBeInstanceOf(SessionFileError);
    expect(s.library.records).toHaveLength(count);
  });
});

describe('SessionLibrary start-up', () => {
  it('starts a new session when the last one cannot be opened, and says why', async () => {
    const s = await setup({ prefix: 'damaged-' });
    const broken = await s.library.store.createSession({ title: 'broken' });
    const entries = s.library.store.loadEntries.bind(s.library.store);
    s.library.store.loadEntries = async (id) => {
      if (id === broken.id) throw new Error('Stored message 0 of this session is damaged.');
      return entries(id);
    };
    s.library.store.recoverSession = async (id) => s.library.store.loadEntries(id);
    await s.library.start();
    expect(s.library.notice).toMatch(/damaged/);
    expect(s.library.current).not.toBeNull();
    expect(s.library.current?.id).not.toBe(broken.id);
  });

  it('shows the stored transcript while the sandbox boots; the workspace and a prompt sent meanwhile follow it', async () => {
    const first = await setup({ prefix: 'early-' });
    await first.library.start();
    await runPrompt(first, 'Write a.txt', [{ content: [toolCall('write', { path: 'a.txt', content: 'kept\n' })] }, { content: 'Done.' }]);
    first.library.stop();

    const runtime = await createEmbeddedRuntime();
    let boot!: (runtime: Runtime) => void;
    const booted = new Promise<Runtime>((resolve) => (boot = resolve));
    const second = await setup({ prefix: 'early-', runtime, sandbox: () => booted });
    const started = second.library.start();
    const deadline = Date.now() + 3000;
    while (!second.library.current && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    const session = second.library.current!;
    expect(session.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'toolResult', 'assistant']);
    expect(await names(runtime)).toEqual([]); // the sandbox has not been handed over yet

    second.script([{ content: [toolCall('read', { path: 'a.txt' })] }, { content: 'It says kept.' }]);
    session.send('What is in a.txt?');
    expect(session.running).toBe(true);
    await new Promise((r) => setTimeout(r, 30));
    expect(session.messages).toHaveLength(4); // waiting for the sandbox, not failing

    boot(runtime);
    await started;
    await session.idle();
    expect(await read(runtime, 'a.txt')).toBe('kept\n');
    const result = session.messages.find((m, i) => i > 3 && m.role === 'toolResult');
    expect(result).toMatchObject({ isError: false, content: [{ type: 'text', text: expect.stringContaining('kept') }] });
    await second.library.flush();
    expect(await second.library.store.loadEntries(session.id)).toHaveLength(8);
  });

  it('leaves nothing open when the sandbox cannot start, and failed page loads do not pile up sessions', async () => {
    for (let load = 0; load < 2; load++) {
      const s = await setup({ prefix: 'no-sandbox-', sandbox: async () => Promise.reject(new Error('The sandbox could not start.')) });
      await s.library.start();
      expect(s.library.current).toBeNull(); // the page shows why instead of a session it cannot work in
      expect(s.library.notice).toBeNull();
      expect(await s.library.store.listSessions()).toHaveLength(1);
      s.library.stop();
    }
  });
});
