import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import type { CompactionEntry, Message, Model, StreamOptions, Tool } from '../../ai/types';
import { compactContext, summaryOutputTokens, type CompactionRequest } from './compact';
import { buildModelContext, SUMMARY_PREFIX } from './model-context';
import { SUMMARY_SYSTEM_PROMPT } from './summary-prompts';
import {
  bulk,
  call,
  calls,
  fileEffectOf,
  reply,
  result,
  scriptedWithSummaries,
  smallModel,
  summaryRequestText,
  turn,
  user,
  type SummaryAnswer,
} from './testing/transcripts';

const tools: Tool[] = [{ name: 'read', description: 'Read a file', parameters: Type.Object({ path: Type.String() }) }];

function sessionOf(turns: number, outputTokens: number): Message[] {
  return Array.from({ length: turns }, (_, n) => turn(n, outputTokens)).flat();
}

function compact(messages: Message[], options: Partial<CompactionRequest> & { summaries?: SummaryAnswer; compactions?: CompactionEntry[] } = {}) {
  const provider = scriptedWithSummaries([], options.summaries);
  const model = options.model ?? smallModel();
  const outcome = compactContext({
    context: buildModelContext(messages, options.compactions ?? []),
    systemPrompt: 'You are Conch.',
    tools,
    model,
    streamFn: provider.streamFn,
    fileEffectOf,
    ...options,
  });
  return { outcome, ...provider };
}

describe('a compaction', () => {
  it('asks the same model for a summary with its own system prompt, no tools, and the transcript as plain text', async () => {
    const messages = sessionOf(6, 3_000);
    const { outcome, streamFn, summaryRequests } = compact(messages, { streamOptions: { apiKey: 'sk-test', thinking: 'high' } });
    expect((await outcome).ok).toBe(true);
    const [request] = summaryRequests;
    expect(request.systemPrompt).toBe(SUMMARY_SYSTEM_PROMPT);
    expect(request.tools).toEqual([]);
    expect(request.messages).toHaveLength(1);
    const text = summaryRequestText(request);
    expect(text).toContain('[User]: step 0: look at file0.ts');
    expect(text).toContain('[Assistant tool call]: read {"path":"file0.ts"}');
    expect(text).toContain('[Tool result: read]: out0');
    // Each tool output (12,000 characters) is cut to about 2,000.
    expect(text).toMatch(/\[… 99\d\d more characters not shown\]/);
    for (const heading of ['## Goal', '## Constraints and preferences', '## Progress', '### Done', '### In progress', '### Blocked', '## Key decisions', '## Next steps', '## Critical context']) {
      expect(text).toContain(heading);
    }
    const options = streamFn.options[0] as StreamOptions;
    expect(options).toMatchObject({ apiKey: 'sk-test', thinking: 'off', maxTokens: summaryOutputTokens(smallModel()) });
  });

  it('returns the entry and the view the model sees next; the transcript itself is untouched', async () => {
    const messages = sessionOf(6, 3_000);
    const before = structuredClone(messages);
    const outcome = await compact(messages, { summaries: '## Goal\nRead all the files.', now: () => 42 }).outcome;
    if (!outcome.ok) throw new Error(outcome.message);
    const { entry, context } = outcome;
    expect(entry).toMatchObject({ type: 'compaction', summary: '## Goal\nRead all the files.', atSeq: 24, timestamp: 42 });
    expect(messages[entry.firstKeptSeq].role).toBe('user');
    expect(entry.tokensBefore).toBeGreaterThan(16_000);
    expect(entry.tokensAfter).toBeLessThan(16_384 - 4_096);
    expect(entry.usage).toMatchObject({ input: 100, output: 50 });
    expect(outcome.usage).toEqual(entry.usage);
    // Files come from the summarised tool calls, not from the model.
    expect(entry.readFiles).toEqual(Array.from({ length: entry.firstKeptSeq / 4 }, (_, n) => `file${n}.ts`).sort());
    expect(context.messages[0].content).toMatch(new RegExp(`^${SUMMARY_PREFIX}\\n\\n## Goal\\nRead all the files.\\n\\nFiles read:\\n- file0.ts`));
    expect(context.messages.slice(1)).toEqual(messages.slice(entry.firstKeptSeq));
    expect(context.seqs.slice(1)).toEqual(messages.slice(entry.firstKeptSeq).map((_, i) => entry.firstKeptSeq + i));
    expect(messages).toEqual(before);
    // The same view comes back from storage: the messages and the entry.
    expect(buildModelContext(messages, [entry])).toEqual(context);
  });

  it('summarises the earlier part of a cut turn separately: its request, early progress and what the rest needs', async () => {
    const longTurn: Message[] = [user('Migrate every module to the new API')];
    for (let i = 0; i < 8; i++) longTurn.push(calls(call(`m${i}`, 'edit', { path: `mod${i}.ts` })), result(`m${i}`, bulk(1_500, `edit${i}`), 'edit'));
    const messages = [...sessionOf(2, 500), ...longTurn];
    const { outcome, summaryRequests } = compact(messages, {
      summaries: (request) => (summaryRequestText(request).includes('beginning of the current turn') ? 'TURN: migrating modules' : 'HISTORY: two steps'),
    });
    const done = await outcome;
    if (!done.ok) throw new Error(done.message);
    expect(summaryRequests).toHaveLength(2);
    expect(summaryRequestText(summaryRequests[0])).toContain('step 1');
    expect(summaryRequestText(summaryRequests[0])).not.toContain('Migrate every module');
    const turnText = summaryRequestText(summaryRequests[1]);
    expect(turnText).toContain('[User]: Migrate every module to the new API');
    expect(turnText).toContain('## Original request');
    expect(done.entry.summary).toBe('HISTORY: two steps\n\n# The turn in progress (its beginning, summarised)\n\nTURN: migrating modules');
    expect(messages[done.entry.firstKeptSeq].role).toBe('assistant');
    expect(done.entry.modifiedFiles.length).toBeGreaterThan(0);
  });

  it('lists files read and modified from the tool calls: bash counts as neither, a modified file only as modified', async () => {
    const messages: Message[] = [
      user('fix it'),
      calls(call('a', 'read', { path: 'a.ts' }), call('b', 'grep', { path: 'src' }), call('c', 'bash', { command: 'cat z.ts' })),
      result('a', bulk(2_000)), result('b', 'src/a.ts:1'), result('c', 'z'),
      calls(call('d', 'edit', { path: 'a.ts' }), call('e', 'write', { path: 'new.ts' })),
      result('d', 'ok', 'edit'), result('e', 'ok', 'write'),
      reply('Fixed.'),
      user(`Now the docs, from these notes: ${bulk(6_000)}`),
    ];
    const earlier: CompactionEntry = { type: 'compaction', summary: 'old', firstKeptSeq: 0, atSeq: 0, tokensBefore: 1, tokensAfter: 1, readFiles: ['old.ts'], modifiedFiles: ['gone.ts'], timestamp: 1 };
    const done = await compact(messages, { compactions: [earlier] }).outcome;
    if (!done.ok) throw new Error(done.message);
    expect(done.entry.readFiles).toEqual(['old.ts', 'src']);
    expect(done.entry.modifiedFiles).toEqual(['a.ts', 'gone.ts', 'new.ts']);
  });

  it('updates the previous summary the second time, never re-summarising it, and never loses a kept message', async () => {
    const messages = sessionOf(6, 3_000);
    const first = await compact(messages, { summaries: '## Goal\nFIRST SUMMARY' }).outcome;
    if (!first.ok) throw new Error(first.message);
    messages.push(...sessionOf(10, 3_000).slice(24)); // the session goes on: turns 6–9
    const second = compact(messages, { compactions: [first.entry], summaries: '## Goal\nSECOND SUMMARY' });
    const done = await second.outcome;
    if (!done.ok) throw new Error(done.message);
    const text = summaryRequestText(second.summaryRequests[0]);
    expect(text).toContain('<previous-summary>\n## Goal\nFIRST SUMMARY\n</previous-summary>');
    expect(text).toContain('Update it with those messages');
    expect(text).not.toContain(SUMMARY_PREFIX);
    expect(text).toContain(`step ${first.entry.firstKeptSeq / 4}:`); // the first kept turn is summarised now
    expect(done.entry.firstKeptSeq).toBeGreaterThan(first.entry.firstKeptSeq);
    expect(done.entry.atSeq).toBe(40);
    // Every message is either covered by the new summary or sent verbatim, in order; storage still has them all.
    const view = buildModelContext(messages, [first.entry, done.entry]);
    expect(view.messages[0].content).toContain('SECOND SUMMARY');
    expect(view.messages.slice(1)).toEqual(messages.slice(done.entry.firstKeptSeq));
    expect(messages).toHaveLength(40);
  });

  it('adds the focus text to the summary request', async () => {
    const { outcome, summaryRequests } = compact(sessionOf(6, 3_000), { focus: 'keep the API design' });
    const done = await outcome;
    expect(done.ok && done.entry.focus).toBe('keep the API design');
    expect(summaryRequestText(summaryRequests[0])).toContain('pay particular attention to: keep the API design');
  });

  it('changes nothing when cancelled during the summary call', async () => {
    const messages = sessionOf(6, 3_000);
    const context = buildModelContext(messages, []);
    const snapshot = structuredClone(context);
    const controller = new AbortController();
    const { streamFn, summaryRequests } = scriptedWithSummaries([], () => {
      queueMicrotask(() => controller.abort());
      return { content: 'never finished', delayMs: 50 };
    });
    const outcome = await compactContext({ context, systemPrompt: 's', tools, model: smallModel(), streamFn, signal: controller.signal });
    expect(outcome).toMatchObject({ ok: false, reason: 'aborted', message: 'The compaction was cancelled; nothing changed.' });
    expect(summaryRequests).toHaveLength(1);
    expect(context).toEqual(snapshot);
  });

  it('changes nothing and says why when the summary call fails or returns nothing', async () => {
    const failing = await compact(sessionOf(6, 3_000), {
      summaries: { content: [], stopReason: 'error', errorMessage: 'Anthropic is rate-limiting requests (HTTP 429). (gave up after 3 retries)' },
    }).outcome;
    expect(failing).toMatchObject({ ok: false, reason: 'failed' });
    expect(!failing.ok && failing.message).toBe(
      'The summary request failed: Anthropic is rate-limiting requests (HTTP 429). (gave up after 3 retries) The session is unchanged.',
    );
    const empty = await compact(sessionOf(6, 3_000), { summaries: { content: [{ type: 'thinking', thinking: 'hmm' }] } }).outcome;
    expect(empty).toMatchObject({ ok: false, reason: 'failed', message: 'The model returned an empty summary. The session is unchanged.' });
    const thrown = await compact(sessionOf(6, 3_000), { summaries: { content: [], throws: new Error('socket hang up'), throwAt: 'call' } }).outcome;
    expect(!thrown.ok && thrown.message).toBe('The summary request failed: socket hang up The session is unchanged.');
  });

  it('summarises in chunks, oldest first, each updating the running summary, when a small window cannot take it all', async () => {
    const model: Model = smallModel(8_192, 4_096);
    const messages = sessionOf(40, 1_200);
    const { outcome, summaryRequests } = compact(messages, { model, summaries: (_r, i) => `RUNNING ${i + 1}` });
    const done = await outcome;
    if (!done.ok) throw new Error(done.message);
    expect(summaryRequests.length).toBeGreaterThan(1);
    const texts = summaryRequests.map(summaryRequestText);
    expect(texts[0]).toContain('step 0:');
    expect(texts[0]).not.toContain('<previous-summary>');
    for (const [i, text] of texts.slice(1).entries()) expect(text).toContain(`<previous-summary>\nRUNNING ${i + 1}\n</previous-summary>`);
    for (const request of summaryRequests) {
      const size = Math.ceil((request.systemPrompt.length + summaryRequestText(request).length) / 4);
      expect(size + summaryOutputTokens(model)).toBeLessThanOrEqual(model.contextWindow);
    }
    expect(done.entry.summary).toBe(`RUNNING ${summaryRequests.length}`);
    expect(done.usage.input).toBe(100 * summaryRequests.length);
  });

  it('prunes old bulky tool results before summarising when that is enough to fit one call', async () => {
    const messages = sessionOf(30, 600);
    const { outcome, summaryRequests } = compact(messages, { model: smallModel(16_384, 4_096) });
    const done = await outcome;
    if (!done.ok) throw new Error(done.message);
    expect(summaryRequests).toHaveLength(1);
    const text = summaryRequestText(summaryRequests[0]);
    expect(text).toContain('[Tool result: read]: [output removed to save context: 60 lines; re-run the tool if needed]');
    expect(text).not.toContain('[Tool result: read]: out0');
    expect(text).toContain(`[Tool result: read]: out${done.entry.firstKeptSeq / 4 - 1}`);
    expect((messages[2] as { content: { text: string }[] }).content[0].text).toMatch(/^out0/);
  });

  it('keeps nothing verbatim when the session is one tool result too big to keep, and summarises its start', async () => {
    const messages = [user('read the log'), calls(call('a', 'read', { path: 'big.log' })), result('a', bulk(50_000, 'log'))];
    const { outcome, summaryRequests } = compact(messages);
    const done = await outcome;
    if (!done.ok) throw new Error(done.message);
    expect(done.entry).toMatchObject({ firstKeptSeq: 3, atSeq: 3, readFiles: ['big.log'] });
    expect(done.context.messages).toHaveLength(1);
    expect(summaryRequestText(summaryRequests[0])).toContain('[Tool result: read]: log log');
    expect(done.entry.tokensAfter).toBeLessThan(2_000);
  });

  it('reports that there is nothing to compact in a short session, unless asked to', async () => {
    const short = await compact(sessionOf(2, 100)).outcome;
    expect(short).toMatchObject({ ok: false, reason: 'nothing' });
    expect(!short.ok && short.message).toMatch(/^Nothing to compact: the conversation \(\d+ tokens\) already fits/);
    const asked = await compact(sessionOf(2, 100), { force: true }).outcome;
    expect(asked.ok && asked.entry.firstKeptSeq).toBe(4);
  });
});
