// Subagent tasks in the session file: their own line type after the entries, validated like every other line, and
// carried from one browser to another (with the secret review looking through their transcripts too).
import 'fake-indexeddb/auto';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionFileError } from '../../errors';
import { createSessionStore } from '../../sessions/session-store';
import { assistant, call, result, task, user } from '../../testing/messages';
import type { SessionStore } from '../../types';
import { buildSessionDownload, importSessionIntoStore, loadSessionExport, redactSessionExport, scanSessionExport } from '../transfer';
import { exportSessionFile, importSessionFile, type SessionExportInput } from './session-file';

const header = { type: 'header', format: 'conch-session', version: 1, id: 'abc', title: 'T', createdAt: 1, model: 'm', provider: 'p', exportedAt: 2 };
const messages = [
  user('look around'),
  assistant([call('t1', 'task'), call('t2', 'task')]),
  result('t1', 'found it', 'task'),
  result('t2', 'found more', 'task'),
  assistant('Both found.'),
];
const entryLines = messages.map((message, seq) => JSON.stringify({ type: 'entry', seq, message }));
const worker = task('t2', {
  agent: 'worker',
  status: 'conflict',
  filesChanged: ['src/a.ts'],
  conflicts: [{ path: 'src/a.ts', hunks: [{ baseStart: 3, base: 'a\n', live: 'b\n', worker: 'c\n' }] }],
  pending: [{ path: 'src/a.ts', base: 'a\n', worker: 'c\n' }],
});

function sample(): SessionExportInput {
  return {
    session: { id: 'abc', title: 'Look around', createdAt: 1000, model: 'claude-test', provider: 'anthropic' },
    messages,
    tasks: [task('t1'), worker],
    workspace: new Map(),
  };
}

async function failure(lines: string[]): Promise<SessionFileError> {
  const error = await importSessionFile(zipSync({ 'session.jsonl': strToU8(lines.join('\n')) })).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(SessionFileError);
  return error as SessionFileError;
}

describe('tasks in the session file', () => {
  it('round-trips every task, each as a task line after the entries', async () => {
    const data = exportSessionFile(sample(), 5);
    const lines = new TextDecoder().decode(unzipSync(data)['session.jsonl']).trimEnd().split('\n');
    expect(lines.map((line) => JSON.parse(line).type)).toEqual(['header', 'entry', 'entry', 'entry', 'entry', 'entry', 'task', 'task']);
    const back = await importSessionFile(data);
    expect(back.tasks).toEqual([task('t1'), worker]);
    expect(back.messages).toEqual(messages);
  });

  it('reads a file from before subagents with no tasks', async () => {
    const back = await importSessionFile(zipSync({ 'session.jsonl': strToU8([JSON.stringify(header), ...entryLines].join('\n')) }));
    expect(back.tasks).toEqual([]);
  });

  it('refuses a malformed task line, naming the line and the field', async () => {
    const broken = { ...task('t1'), status: 'finished' };
    const error = await failure([JSON.stringify(header), ...entryLines, JSON.stringify(broken)]);
    expect(error.line).toBe(7);
    expect(error.message).toBe('session.jsonl line 7, status: must be one of "queued", "running", "done", "error", "conflict", "aborted", got "finished"');
    const badMessage = { ...task('t1'), messages: [user('go'), { role: 'assistant', content: 'nope' }] };
    expect((await failure([JSON.stringify(header), ...entryLines, JSON.stringify(badMessage)])).message).toMatch(/^session\.jsonl line 7, messages\/1\//);
  });

  it('refuses a task that answers no task call of the transcript, or a second line for one call', async () => {
    const stray = await failure([JSON.stringify(header), ...entryLines, JSON.stringify(task('elsewhere'))]);
    expect(stray.message).toBe('session.jsonl line 7, toolCallId: "elsewhere" is not a task call of the transcript, so this task answers nothing');
    const twice = await failure([JSON.stringify(header), ...entryLines, JSON.stringify(task('t1')), JSON.stringify(task('t1'))]);
    expect(twice.line).toBe(8);
    expect(twice.message).toContain('has a task line already');
  });

  it('still names the line of a type it does not know', async () => {
    const error = await failure([JSON.stringify(header), ...entryLines, JSON.stringify({ type: 'hologram' })]);
    expect(error.message).toMatch(/^session\.jsonl line 7, type: must be "entry", "compaction" or "task", got "hologram": a line type this Conch does not know/);
  });
});

let n = 0;
const stores: SessionStore[] = [];
const fresh = () => {
  const store = createSessionStore({ prefix: `file-tasks-${n++}-` });
  stores.push(store);
  return store;
};
afterEach(() => stores.splice(0).forEach((s) => s.close()));

describe('tasks across browsers', () => {
  it('are exported from the store and imported into the new session, secrets in their transcripts reviewed', async () => {
    const key = 'sk-ant-api03-0123456789abcdefghijklmnop';
    const mine = fresh();
    const { id } = await mine.createSession();
    for (const m of messages) await mine.appendEntry(id, m);
    const leaky = task('t1', { messages: [user('look'), assistant([call('r', 'read')]), result('r', `KEY=${key}`, 'read'), assistant('found')] });
    await mine.saveTask(id, leaky);
    await mine.saveTask(id, { ...worker, queuedAt: 11, pending: [{ path: '.env', base: null, worker: `TOKEN=${key}` }] });
    const input = await loadSessionExport(mine, id);
    expect(input.tasks?.map((t) => t.toolCallId)).toEqual(['t1', 't2']);

    const findings = scanSessionExport(input, [key]);
    expect(findings.map((f) => f.field)).toEqual(['task "Find the config loader" message 2/content/0/text', 'task "Find the config loader" kept file .env']);
    const clean = await redactSessionExport(input, findings);
    expect(JSON.stringify(clean.tasks)).not.toContain(key);
    expect(clean.tasks?.[0].messages[2]).toMatchObject({ content: [{ text: 'KEY=[REDACTED]' }] });

    const theirs = fresh();
    const imported = await importSessionIntoStore(theirs, buildSessionDownload(clean).data);
    expect(await theirs.loadTasks(imported.id)).toEqual(clean.tasks);
  });
});
