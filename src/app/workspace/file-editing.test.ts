import { describe, expect, it } from 'vitest';
import { createEmbeddedRuntime } from '../../runtime/embedded';
import { Workspace } from '../../runtime/workspace/workspace';
import { createCodingTools } from '../../tools';
import { openFile, SaveConflictError, saveFile } from './file-editing';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const editTool = (workspace: Workspace) => createCodingTools(workspace).find((tool) => tool.name === 'edit')!;

describe('a person’s saves and the agent’s edits of one file', () => {
  it('lose neither change when they race, across a runtime hand-over', async () => {
    const workspace = new Workspace();
    const editor = workspace; // the Files tab holds the same workspace as the agent's tools
    const agent = editTool(workspace);

    // Both start before the sandbox is there; both wait for it in the file's one queue.
    const opened = 'line 1\nline 2\nline 3\nline 4\nline 5\n';
    const agentEdit = agent.execute('call-1', { path: 'notes.txt', edits: [{ oldText: 'line 5', newText: 'line 5 (agent)' }] });
    const personSave = saveFile(editor, 'notes.txt', opened.replace('line 1', 'line 1 (person)'), opened);
    workspace.attach(createEmbeddedRuntime({ files: { 'notes.txt': opened } }));
    await Promise.all([agentEdit, personSave]);
    expect(text(await workspace.readFile('notes.txt'))).toBe('line 1 (person)\nline 2\nline 3\nline 4\nline 5 (agent)\n');

    // WebContainer takes over (the files carried over): the same queue serializes the next race.
    const next = createEmbeddedRuntime({ files: { 'notes.txt': text(await workspace.readFile('notes.txt')) } });
    workspace.attach(next);
    const base = text(await next.readFile('notes.txt'));
    await Promise.all([
      agent.execute('call-2', { path: 'notes.txt', edits: [{ oldText: 'line 4', newText: 'line 4 (agent)' }] }),
      saveFile(editor, 'notes.txt', base.replace('line 2', 'line 2 (person)'), base),
    ]);
    expect(text(await next.readFile('notes.txt'))).toBe('line 1 (person)\nline 2 (person)\nline 3\nline 4 (agent)\nline 5 (agent)\n');
  });

  it('writes nothing and says so when both changed the same lines; an overwrite then wins', async () => {
    const workspace = Workspace.of(createEmbeddedRuntime({ files: { 'a.txt': 'one\ntwo\n' } }));
    const opened = await openFile(workspace, 'a.txt');
    expect(opened.kind).toBe('text');
    await editTool(workspace).execute('call', { path: 'a.txt', edits: [{ oldText: 'two', newText: 'TWO (agent)' }] });
    const save = saveFile(workspace, 'a.txt', 'one\ntwo (person)\n', 'one\ntwo\n');
    await expect(save).rejects.toBeInstanceOf(SaveConflictError);
    await expect(save).rejects.toThrow(/Reload .* or Overwrite/);
    expect(text(await workspace.readFile('a.txt'))).toBe('one\nTWO (agent)\n');
    await saveFile(workspace, 'a.txt', 'one\ntwo (person)\n');
    expect(text(await workspace.readFile('a.txt'))).toBe('one\ntwo (person)\n');
  });

  it('saves through a symlink into its target, keeping the link', async () => {
    const runtime = createEmbeddedRuntime({ files: { 'target.txt': 'old' } });
    await runtime.exec('ln -s target.txt link.txt');
    const workspace = Workspace.of(runtime);
    await saveFile(workspace, 'link.txt', 'new', 'old');
    expect(text(await runtime.readFile('target.txt'))).toBe('new');
    expect((await runtime.exec('readlink link.txt')).output.trim()).toBe('target.txt');
  });
});
