import { strToU8, unzipSync, zipSync, type Zippable } from 'fflate';
import { describe, expect, it } from 'vitest';
import { SessionFileError } from '../../errors';
import type { CompactionEntry } from '../../../ai/types';
import { exportSessionFile, importSessionFile, sessionFileName, type SessionExportInput } from './session-file';
import { assistant, searchedReply, transcript, user } from '../../testing/messages';
import { zipFromFiles } from '../../zip/repo-zip';

const enc = (s: string) => new TextEncoder().encode(s);
const header = { type: 'header', format: 'conch-session', version: 1, id: 'abc', title: 'T', createdAt: 1, model: 'm', provider: 'p', exportedAt: 2 };

function sample(): SessionExportInput {
  return {
    session: { id: 'abc', title: 'Fix the parser', createdAt: 1000, model: 'claude-test', provider: 'anthropic' },
    messages: transcript(2),
    workspace: new Map([['src/a.ts', enc('new\n')], ['img.bin', new Uint8Array([0, 1, 2])]]),
    baseline: new Map([['src/a.ts', enc('old\n')]]),
    checkpoints: new Map([[0, zipFromFiles(new Map([['src/a.ts', enc('old\n')]]))]]),
  };
}

/** A session file whose session.jsonl is exactly `lines`. */
function fileWithLines(lines: string[], extra: Zippable = {}): Uint8Array {
  return zipSync({ 'session.jsonl': strToU8(lines.join('\n')), ...extra });
}
const entry = (seq: number, message: unknown) => JSON.stringify({ type: 'entry', seq, message });

async function failure(data: Uint8Array): Promise<SessionFileError> {
  const error = await importSessionFile(data).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(SessionFileError);
  return error as SessionFileError;
}

describe('session file', () => {
  it('round-trips header, transcript, workspace, baseline and checkpoints', async () => {
    const input = sample();
    const back = await importSessionFile(exportSessionFile(input, 5000));
    expect(back.header).toEqual({ type: 'header', format: 'conch-session', version: 1, id: 'abc', title: 'Fix the parser', createdAt: 1000, model: 'claude-test', provider: 'anthropic', exportedAt: 5000 });
    expect(back.messages).toEqual(input.messages);
    expect(back.workspace).toEqual(input.workspace);
    expect(back.baseline).toEqual(input.baseline);
    expect(back.checkpoints).toEqual(input.checkpoints);
  });

  it("keeps a provider's web searches, their raw blocks and the citations across export and import", async () => {
    const input = { ...sample(), messages: [user('what are runes?'), searchedReply()] };
    const back = await importSessionFile(exportSessionFile(input, 5000));
    expect(back.messages).toEqual(input.messages);
  });

  it('names what is wrong with a web search block that lost its raw blocks', async () => {
    const { raw: _raw, ...broken } = searchedReply().content[0] as Record<string, unknown>;
    const message = { ...searchedReply(), content: [broken] };
    const error = await failure(fileWithLines([JSON.stringify(header), entry(0, user('q')), entry(1, message)]));
    expect(error.message).toContain('content/0/raw');
  });

  it('writes one JSON line per entry after the header', async () => {
    const { unzipSync } = await import('fflate');
    const lines = new TextDecoder().decode(unzipSync(exportSessionFile(sample()))['session.jsonl']).trimEnd().split('\n');
    expect(lines).toHaveLength(9);
    expect(JSON.parse(lines[0])).toMatchObject({ type: 'header', format: 'conch-session', version: 1 });
    expect(JSON.parse(lines[3])).toEqual({ type: 'entry', seq: 2, message: sample().messages[2] });
  });

  it('never contains the API key from settings', async () => {
    const apiKey = 'sk-ant-api03-SETTINGS-KEY-never-exported-0123456789';
    const settings = { provider: 'anthropic', keys: { anthropic: apiKey } };
    void settings; // the export input has no place for settings: this proves none leaks through
    const data = exportSessionFile(sample());
    const { unzipSync } = await import('fflate');
    const everything = Object.values(unzipSync(data)).map((b) => new TextDecoder().decode(b)).join('\n');
    expect(everything).not.toContain(apiKey);
    expect(new TextDecoder('latin1').decode(data)).not.toContain(apiKey);
  });

  it('makes safe file names: a slug of the title and the day', () => {
    const day = new Date(2026, 10, 30);
    expect(sessionFileName('Fix: the "parser" / lexer?', day)).toBe('fix-the-parser-lexer-2026-11-30.conch.zip');
    expect(sessionFileName('', day)).toBe('session-2026-11-30.conch.zip');
    expect(sessionFileName('../../etc', day)).toBe('etc-2026-11-30.conch.zip');
  });

  it.each([
    ['wrong JSON', [JSON.stringify(header), '{"type":"entry",'], /line 2 is not valid JSON/, 2],
    ['a non-object line', [JSON.stringify(header), '42'], /line 2, \(line\): must be a JSON object/, 2],
    ['a wrong entry type', [JSON.stringify(header), JSON.stringify({ type: 'note', seq: 0 })], /line 2, type: must be "entry"/, 2],
    ['a gap in seq', [JSON.stringify(header), entry(0, user('a')), entry(5, user('b'))], /line 3, seq: must be 1/, 3],
    ['a bad role', [JSON.stringify(header), entry(0, { role: 'system', content: 'x', timestamp: 1 })], /line 2, message\/role: must be "user", "assistant" or "toolResult", got "system"/, 2],
    ['a bad content block type', [JSON.stringify(header), entry(0, user('ok')), entry(1, { role: 'user', content: [{ type: 'video' }], timestamp: 1 })], /line 3, message\/content\/0\/type: must be one of "text", "image"/, 3],
    ['a bad field inside a block', [JSON.stringify(header), entry(0, { role: 'toolResult', toolCallId: 'x', toolName: 'bash', content: [{ type: 'text', text: ['no'] }], isError: false, timestamp: 1 })], /line 2, message\/content\/0\/text: expected string, got an array/, 2],
    ['a missing usage field', [JSON.stringify(header), entry(0, { role: 'assistant', content: [], provider: 'p', model: 'm', usage: { input: 1 }, stopReason: 'stop', timestamp: 1 })], /line 2, message\/usage\/output: is required but missing/, 2],
    ['a non-header first line', [entry(0, user('a'))], /line 1, format: this is not a Conch session file/, 1],
    ['a newer version', [JSON.stringify({ ...header, version: 2 })], /line 1, version: this file is format version 2, made by a newer Conch; this Conch reads version 1/, 1],
    ['a header field of the wrong type', [JSON.stringify({ ...header, createdAt: 'yesterday' })], /line 1, createdAt: expected number, got "yesterday"/, 1],
    ['an empty file', [], /session.jsonl is empty/, 1],
  ] as const)('rejects %s, naming the line and field', async (_, lines, message, line) => {
    const error = await failure(fileWithLines([...lines]));
    expect(error.message).toMatch(message);
    expect(error.line).toBe(line);
  });

  it('rejects a file without session.jsonl, or not a zip at all', async () => {
    expect((await failure(zipSync({ 'readme.txt': strToU8('hi') }))).message).toMatch(/session.jsonl is missing/);
    expect((await failure(strToU8('{"type":"header"}'))).message).toMatch(/cannot be read: This file is not a readable zip/);
  });

  it('accepts a session file re-zipped inside a folder', async () => {
    const zip = zipSync({ 'my-session/session.jsonl': strToU8(`${JSON.stringify(header)}\n${entry(0, user('hi'))}\n`), 'my-session/workspace/a.txt': strToU8('a') });
    const back = await importSessionFile(zip);
    expect(back.messages).toEqual([user('hi')]);
    expect([...back.workspace.keys()]).toEqual(['a.txt']);
  });

  it('rejects zip-slip paths in workspace/ before anything is returned', async () => {
    const zip = fileWithLines([JSON.stringify(header)], { 'workspace/../../evil.sh': strToU8('x') });
    expect((await failure(zip)).message).toMatch(/"workspace\/..\/..\/evil.sh" climbs out/);
  });

  it('rejects checkpoints that do not belong to a user message or are not zips', async () => {
    const lines = [JSON.stringify(header), entry(0, user('a'))];
    expect((await failure(fileWithLines(lines, { 'checkpoints/3.zip': zipFromFiles(new Map()) }))).message).toMatch(/checkpoints\/3.zip: a checkpoint must be named/);
    expect((await failure(fileWithLines(lines, { 'checkpoints/0.zip': strToU8('nope') }))).message).toMatch(/checkpoints\/0.zip is unusable/);
  });

  it('handles thousands of lines and a huge line', async () => {
    const messages = Array.from({ length: 5000 }, (_, i) => user(`message ${i}`));
    const big = user('x'.repeat(5_000_000));
    const input = { ...sample(), messages: [...messages, big], checkpoints: new Map() };
    const back = await importSessionFile(exportSessionFile(input));
    expect(back.messages).toHaveLength(5001);
    expect(back.messages[5000]).toEqual(big);
  });

  it('rejects a line over the size limit without trying to parse it', async () => {
    const { MAX_LINE_CHARS } = await import('./session-file');
    const zip = fileWithLines([JSON.stringify(header), `"${'a'.repeat(MAX_LINE_CHARS)}"`]);
    // Repetitive text compresses beyond the zip-bomb ratio; lift that limit to reach the line check.
    const error = (await importSessionFile(zip, { maxRatio: 1e9 }).catch((e: unknown) => e)) as SessionFileError;
    expect(error).toBeInstanceOf(SessionFileError);
    expect(error.message).toMatch(/line 2 is 64\.0 MB, over the 64\.0 MB limit/);
  });

  it('rejects text that is not UTF-8', async () => {
    const zip = zipSync({ 'session.jsonl': new Uint8Array([0xff, 0xfe, 0x00]) });
    expect((await failure(zip)).message).toMatch(/not UTF-8/);
  });
});

describe('compactions in the session file', () => {
  const compaction = (summary: string, firstKeptSeq: number, atSeq: number): CompactionEntry => ({
    type: 'compaction', summary, firstKeptSeq, atSeq, tokensBefore: 182_000, tokensAfter: 24_000,
    readFiles: ['src/a.ts'], modifiedFiles: [], timestamp: 3, usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, cost: { total: 0.01 } },
  });
  const jsonlOf = (data: Uint8Array) => new TextDecoder().decode(unzipSync(data)['session.jsonl']).trimEnd().split('\n');

  it('round-trips, each compaction written as its own line where it was made', async () => {
    const input = { ...sample(), compactions: [compaction('first', 2, 4), { ...compaction('second', 4, 8), focus: 'the API' }] };
    const data = exportSessionFile(input);
    const types = jsonlOf(data).map((line) => JSON.parse(line).type);
    expect(types).toEqual(['header', 'entry', 'entry', 'entry', 'entry', 'compaction', 'entry', 'entry', 'entry', 'entry', 'compaction']);
    const back = await importSessionFile(data);
    expect(back.compactions).toEqual(input.compactions);
    expect(back.messages).toEqual(input.messages);
  });

  it('keeps the todo list: the todo call in the transcript and the list a compaction re-states', async () => {
    const todos = [{ content: 'Read the parser', status: 'completed' as const }, { content: 'Fix it', status: 'in_progress' as const }];
    const todoCall = { type: 'toolCall' as const, id: 't1', name: 'todo', arguments: { todos } };
    const messages = [...sample().messages, assistant([todoCall])];
    const input = { ...sample(), messages, compactions: [{ ...compaction('first', 2, 4), todos }] };
    const back = await importSessionFile(exportSessionFile(input));
    expect(back.messages.at(-1)).toEqual(messages.at(-1));
    expect(back.compactions[0].todos).toEqual(todos);
    const badStatus = { ...compaction('s', 0, 1), todos: [{ content: 'x', status: 'done' }] };
    const error = await failure(fileWithLines([JSON.stringify(header), entry(0, user('a')), JSON.stringify(badStatus)]));
    expect(error.message).toMatch(/line 3, todos\/0\/status/);
  });

  it('reads files from before compactions existed, with none', async () => {
    const back = await importSessionFile(fileWithLines([JSON.stringify(header), entry(0, user('old file'))]));
    expect(back.compactions).toEqual([]);
    expect(back.messages).toEqual([user('old file')]);
  });

  it.each([
    ['an unknown line type', [JSON.stringify(header), entry(0, user('a')), JSON.stringify({ type: 'bookmark', seq: 0 })],
      /^session.jsonl line 3, type: must be "entry", "compaction" or "task", got "bookmark": a line type this Conch does not know/, 3],
    ['a compaction missing a field', [JSON.stringify(header), entry(0, user('a')), JSON.stringify({ ...compaction('s', 0, 1), summary: undefined })],
      /line 3, summary: is required but missing/, 3],
    ['a compaction out of place', [JSON.stringify(header), entry(0, user('a')), JSON.stringify(compaction('s', 0, 0))],
      /line 3, atSeq: must be 1 \(the entries before this line\), got 0/, 3],
    ['a compaction ahead of the transcript', [JSON.stringify(header), JSON.stringify(compaction('s', 0, 4))],
      /line 2, atSeq: must be at most 0/, 2],
    ['a compaction keeping messages after it', [JSON.stringify(header), entry(0, user('a')), JSON.stringify(compaction('s', 3, 1))],
      /line 3, firstKeptSeq: must be at most atSeq \(1\), got 3/, 3],
    ['a compaction with a negative seq', [JSON.stringify(header), JSON.stringify(compaction('s', -1, 0))],
      /line 2, firstKeptSeq: expected integer to be greater or equal to 0/, 2],
  ] as const)('rejects %s, naming the line and field', async (_, lines, message, line) => {
    const error = await failure(fileWithLines([...lines]));
    expect(error.message).toMatch(message);
    expect(error.line).toBe(line);
  });
});
