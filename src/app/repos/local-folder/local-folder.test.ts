import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { createScriptedStreamFn } from '../../../ai/providers/scripted';
import { testModel } from '../../../ai/testing/test-model';
import type { FolderHandle } from '../../../remote';
import { memoryFolder, type MemoryDirectory } from '../../../remote/local-folder/testing/memory-directory';
import { createEmbeddedRuntime } from '../../../runtime/embedded';
import type { Runtime } from '../../../runtime/types';
import { Workspace } from '../../../runtime/workspace/workspace';
import { createSessionStore, openSessionEvents, type SessionStore } from '../../../store';
import { createCodingTools } from '../../../tools';
import { SessionLibrary, type SessionHost } from '../../library/library.svelte';
import { SessionController } from '../../session/controller.svelte';
import { defaultSettings } from '../../settings/settings';
import type { Toasts } from '../../toasts.svelte';
import { LocalFolder } from './local-folder.svelte';
import { OutsideEditNotices } from './outside-edit-notices';

const dec = new TextDecoder();
let counter = 0;
const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

// Node's structured clone drops a class's methods, which a browser's directory handle keeps: the links are kept
// here by identity (the IndexedDB round trip itself is session-store.test.ts's).
function keepingHandles(store: SessionStore): SessionStore {
  const links = new Map<string, unknown>();
  store.loadFolderLink = async (id) => links.get(id);
  store.saveFolderLink = async (id, link) => void (link === undefined ? links.delete(id) : links.set(id, link));
  return store;
}

async function setup(files: Record<string, string>) {
  const runtime = await createEmbeddedRuntime();
  const workspace = new Workspace();
  workspace.attach(runtime);
  const settings = defaultSettings();
  const model = testModel({ provider: 'mock', id: 'mock-model' });
  const host: SessionHost = {
    workspace,
    createController: (init) =>
      new SessionController({ ...init, workspace, tools: createCodingTools(workspace), getSettings: () => settings, resolveModel: () => model, streamFn: createScriptedStreamFn([{ content: 'ok' }]), scheduleUpdate: (fn) => queueMicrotask(fn) }),
  };
  const prefix = `local-folder-${counter++}-`;
  const events = openSessionEvents(`test-${prefix}`);
  const store = keepingHandles(createSessionStore({ prefix }));
  const library = new SessionLibrary({ store, host, events, acquireLock: async () => ({ release() {} }) });
  cleanups.push(() => { library.stop(); store.close(); });
  await library.start();
  await runtime.writeFile('mine.txt', 'the session as it was\n');
  const disk = memoryFolder('my-app', files);
  const toasts: { text: string; testId?: string }[] = [];
  const notices = new OutsideEditNotices();
  const make = (pick: (() => Promise<FolderHandle>) | null = async () => disk) =>
    new LocalFolder({ pick, notices: () => notices, toasts: () => ({ show: (toast: { text: string; testId?: string }) => toasts.push(toast) }) as unknown as Toasts });
  const folder = make();
  return { library, runtime, store, disk, folder, toasts, notices, make };
}

const names = async (runtime: Runtime, folder = '') => (await runtime.readdir(folder ? `${runtime.workdir}/${folder}` : runtime.workdir)).map((e) => e.name).sort();
const text = async (runtime: Runtime, path: string) => dec.decode(await runtime.readFile(path));
const rows = (folder: LocalFolder) => Object.fromEntries(folder.review?.rows.map((row) => [row.path, row.status]) ?? []);

async function opened(files: Record<string, string>) {
  const context = await setup(files);
  await context.folder.open(context.library);
  expect(context.folder.error).toBe('');
  return context;
}

describe('LocalFolder', () => {
  it('opens a folder as the workspace and its baseline, leaving node_modules and .git out with a line each', async () => {
    const { library, runtime, store, folder, toasts } = await opened({
      'src/index.ts': 'export const a = 1;\n',
      'node_modules/left-pad/index.js': 'module.exports = 1;\n',
      '.git/HEAD': 'ref: refs/heads/main\n',
    });
    // A lone top folder stays: the workspace's paths are the disk's.
    expect(await names(runtime)).toEqual(['src']);
    expect(await text(runtime, 'src/index.ts')).toBe('export const a = 1;\n');
    expect(folder.folderName).toBe('my-app');
    expect(folder.permission).toBe('granted');
    expect(toasts.at(-1)).toMatchObject({ testId: 'import-result' });
    expect(toasts.at(-1)?.text.split('\n')).toEqual([
      'Opened my-app: 1 file.',
      ".git/ left out: the repository's history (git in the folder keeps it).",
      'node_modules/ left out: installed packages (npm install brings them back).',
    ]);
    expect((await store.getSession(library.current!.id))?.baselineName).toBe('my-app');
    expect((await library.transfer.changes()).changes).toEqual([]);
  });

  it('leaves the workspace as it was when the folder is refused, and says what to do', async () => {
    const { library, runtime, folder } = await setup({ 'bad\\name.ts': 'x', 'ok.ts': 'y' });
    await folder.open(library);
    expect(folder.error).toMatch(/my-app was not opened: "bad\\name.ts" has a backslash in its name.*rename it on disk/);
    expect(await names(runtime)).toEqual(['mine.txt']);
    expect(folder.folderName).toBeNull();
  });

  it('explains and offers the upload where the browser cannot open a folder', async () => {
    const { library, make } = await setup({});
    const folder = make(null);
    expect(folder.supported).toBe(false);
    await folder.open(library);
    expect(folder.unsupportedAsked).toBe(true);
  });

  it('writes back the ticked files, deletes only a confirmed deletion, and makes what was written the new baseline', async () => {
    const { library, disk, folder } = await opened({ 'a.ts': 'a1\n', 'b.ts': 'b1\n', 'old.ts': 'old\n', 'skip.ts': 's1\n' });
    const workspace = library.current!.workspace;
    await workspace.writeFile('a.ts', 'a2\n');
    await workspace.writeFile('new/c.ts', 'c\n');
    await workspace.writeFile('skip.ts', 's2\n');
    await workspace.rm('old.ts');
    await folder.prepareWriteBack(library);
    expect(rows(folder)).toEqual({ 'a.ts': 'modified', 'new/c.ts': 'added', 'old.ts': 'deleted', 'skip.ts': 'modified' });

    const review = folder.review!;
    review.rows.find((row) => row.path === 'skip.ts')!.selected = false;
    await review.confirm();
    // The deletion was ticked but not confirmed on its own: the file stays.
    expect(disk.filePaths()).toEqual(['a.ts', 'b.ts', 'new/c.ts', 'old.ts', 'skip.ts']);
    expect([disk.text('a.ts'), disk.text('new/c.ts'), disk.text('skip.ts')]).toEqual(['a2\n', 'c\n', 's1\n']);
    expect(review.outcome).toEqual(['Wrote 2 files: a.ts, new/c.ts.', 'Left alone (deletion not confirmed, or no choice made): old.ts.']);

    await folder.prepareWriteBack(library);
    expect(rows(folder)).toEqual({ 'old.ts': 'deleted', 'skip.ts': 'modified' });
    // The Changes tab agrees: what was written is no longer a change.
    expect((await library.transfer.changes()).changes.map((change) => change.path).sort()).toEqual(['old.ts', 'skip.ts']);
    folder.review!.rows.find((row) => row.path === 'old.ts')!.deletionConfirmed = true;
    await folder.review!.confirm();
    expect(disk.filePaths()).toEqual(['a.ts', 'b.ts', 'new/c.ts', 'skip.ts']);
    expect(disk.text('skip.ts')).toBe('s2\n');
    await folder.prepareWriteBack(library);
    expect(folder.review!.empty).toBe(true);
  });

  it('asks about a file changed on disk too: keep the disk, take Conch, or merge the two', async () => {
    const base = 'one\ntwo\nthree\nfour\nfive\nsix\n';
    const { library, runtime, disk, folder } = await opened({ 'keep.ts': 'k1\n', 'take.ts': 't1\n', 'merge.ts': base, 'clash.ts': 'c1\n' });
    const workspace = library.current!.workspace;
    for (const path of ['keep.ts', 'take.ts', 'clash.ts']) await workspace.writeFile(path, 'conch\n');
    await workspace.writeFile('merge.ts', base.replace('one', 'ONE (conch)'));
    for (const path of ['keep.ts', 'take.ts', 'clash.ts']) disk.put(path, 'disk\n');
    disk.put('merge.ts', base.replace('six', 'SIX (disk)'));

    await folder.prepareWriteBack(library);
    expect(rows(folder)).toEqual({ 'clash.ts': 'conflict', 'keep.ts': 'conflict', 'merge.ts': 'conflict', 'take.ts': 'conflict' });
    const review = folder.review!;
    await review.choose('keep.ts', 'keep-disk');
    await review.choose('take.ts', 'take-conch');
    await review.choose('merge.ts', 'merge');
    await review.choose('clash.ts', 'merge');
    const clash = review.rows.find((row) => row.path === 'clash.ts')!;
    expect(clash.choice).toBeNull();
    expect(clash.problem).toMatch(/changed the same lines.*keep the disk's version or take Conch's/);
    await review.confirm();

    expect(disk.text('keep.ts')).toBe('disk\n');
    expect(await text(runtime, 'keep.ts')).toBe('disk\n');
    expect(disk.text('take.ts')).toBe('conch\n');
    const merged = 'ONE (conch)\ntwo\nthree\nfour\nfive\nSIX (disk)\n';
    expect(disk.text('merge.ts')).toBe(merged);
    expect(await text(runtime, 'merge.ts')).toBe(merged);
    expect(disk.text('clash.ts')).toBe('disk\n');
    expect(review.outcome).toContain("Kept the disk's version of keep.ts (the workspace now has it too).");
    await folder.prepareWriteBack(library);
    expect(rows(folder)).toEqual({ 'clash.ts': 'conflict' });
  });

  it('brings outside edits in, tells the next run once, and leaves a file changed on both sides to the write-back', async () => {
    const { library, runtime, disk, folder, notices, toasts } = await opened({ 'a.ts': 'a1\n', 'gone.ts': 'g\n', 'both.ts': 'b1\n' });
    await library.current!.workspace.writeFile('both.ts', 'conch\n');
    disk.put('a.ts', 'a2 from the editor\n');
    disk.put('added.ts', 'new\n');
    disk.put('both.ts', 'disk\n');
    disk.delete('gone.ts');
    await folder.refresh(library);
    expect(folder.error).toBe('');
    expect(await names(runtime)).toEqual(['a.ts', 'added.ts', 'both.ts']);
    expect(await text(runtime, 'a.ts')).toBe('a2 from the editor\n');
    expect(await text(runtime, 'both.ts')).toBe('conch\n');
    expect(toasts.at(-1)?.text).toMatch(/Brought in 3 files.*left as Conch has them \(write back to choose\): both\.ts/);
    const id = library.current!.id;
    expect(notices.take(id)).toEqual(['Changed on disk since the last sync: a.ts, added.ts (added), gone.ts (deleted)']);
    expect(notices.take(id)).toEqual([]);
    // What came from disk is not Conch's change; the file both changed is still a question.
    expect((await library.transfer.changes()).changes.map((change) => change.path)).toEqual(['both.ts']);
    await folder.prepareWriteBack(library);
    expect(rows(folder)).toEqual({ 'both.ts': 'conflict' });
  });

  it('unlinks the folder when another import replaces the workspace, and says so instead of writing', async () => {
    const { library, disk, folder } = await opened({ 'a.ts': 'a1\n' });
    await library.transfer.importRepo({ kind: 'folder', name: 'other', entries: [{ path: 'a.ts', data: new TextEncoder().encode('other\n') }] });
    await folder.prepareWriteBack(library);
    expect(folder.review).toBeNull();
    expect(folder.folderName).toBeNull();
    expect(folder.error).toMatch(/no longer comes from my-app \(another import replaced it\): open the folder again/);
    expect(disk.text('a.ts')).toBe('a1\n');
    await folder.showSession(library, library.current!.id, 'other');
    expect(folder.folderName).toBeNull();
  });

  it('after a reload, keeps the folder and asks for permission again only from a click', async () => {
    const { library, disk, folder, make } = await opened({ 'a.ts': 'a1\n' });
    await library.current!.workspace.writeFile('a.ts', 'a2\n');
    disk.disk.permission = 'prompt';
    const reloaded = make();
    await reloaded.showSession(library, library.current!.id);
    expect(reloaded.folderName).toBe('my-app');
    expect(reloaded.permission).toBe('needs-gesture');

    await reloaded.prepareWriteBack(library);
    expect(reloaded.review).toBeNull();
    expect(reloaded.error).toBe('Conch needs your permission again to edit the folder "my-app": click to allow it.');

    disk.disk.userActivation = true;
    expect(await reloaded.allow()).toBe(true);
    await reloaded.prepareWriteBack(library);
    expect(rows(reloaded)).toEqual({ 'a.ts': 'modified' });
    expect(folder.folderName).toBe('my-app');
  });
});
