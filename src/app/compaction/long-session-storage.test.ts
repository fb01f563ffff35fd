// Long sessions across reloads, with the real store (fake-indexeddb): compactions stored beside the messages and the
// model's view rebuilt from them after a reload, forks that only take the compactions before their point, the HTML
// export with its dividers, and a reply interrupted by a reload coming back with Continue.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { SUMMARY_PREFIX } from '../../agent/compaction';
import { bulk, scriptedWithSummaries, smallModel } from '../../agent/compaction/testing/transcripts';
import { toolCall, type ScriptedTurnInput } from '../../ai/providers/scripted';
import type { AssistantMessage, CompactionEntry, Message, StreamFn, StreamRequest } from '../../ai/types';
import { createEmbeddedRuntime } from '../../runtime/embedded';
import { Workspace } from '../../runtime/workspace/workspace';
import { ABORTED_BY_RELOAD, createSessionStore, INTERRUPTED_BY_RELOAD, StorageFullError, type SessionStore } from '../../store';
import { createCodingTools } from '../../tools';
import { CONTINUE_PROMPT, SessionController, type SessionEvent } from '../session/controller.svelte';
import { SessionPersistence } from '../session/persistence';
import { SessionLibrary } from '../library/library.svelte';
import { buildExport, prepareSessionExport } from '../library/sharing';
import { defaultSettings, type Settings } from '../settings/settings';
import { isInterruptedReply, recoverInterruptedReply, ReplyDrafts } from '../session/interrupted-reply';

const model = smallModel(16_384, 4_096);
let counter = 0;
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** A library over a store named `prefix` (the same prefix again is the same browser after a reload). */
async function open(prefix: string, turns: ScriptedTurnInput[] = []) {
  const runtime = await createEmbeddedRuntime();
  const workspace = new Workspace();
  workspace.attach(runtime);
  const settings: Settings = { ...defaultSettings(), apiKey: 'k' };
  let scripted = scriptedWithSummaries(turns);
  const store = createSessionStore({ prefix });
  const library = new SessionLibrary({
    store,
    host: {
      workspace,
      createController: (init) =>
        new SessionController({
          ...init,
          workspace,
          tools: createCodingTools(workspace),
          getSettings: () => settings,
          resolveModel: () => model,
          streamFn: (...args) => scripted.streamFn(...args),
          scheduleUpdate: (fn) => queueMicrotask(fn),
        }),
    },
    acquireLock: async () => ({ release() {} }),
  });
  cleanups.push(() => {
    library.stop();
    store.close();
  });
  await library.start();
  // After the open, which put the session's stored workspace in.
  await runtime.writeFile('big.txt', bulk(3_000, 'line'));
  return {
    library,
    store,
    get session() {
      return library.current!;
    },
    script(next: ScriptedTurnInput[]) {
      scripted = scriptedWithSummaries(next);
      return scripted;
    },
  };
}

const reads = (n: number): ScriptedTurnInput[] => Array.from({ length: n }, () => ({ content: [toolCall('read', { path: 'big.txt' })] }));
const firstText = (request: StreamRequest) => {
  const content = request.messages[0]?.content;
  return typeof content === 'string' ? content : '';
};
const textOf = (message: Message) =>
  typeof message.content === 'string' ? message.content : message.content.map((c) => (c.type === 'text' ? c.text : '')).join('');

describe('compactions across reloads', () => {
  it('are stored beside the messages, counted in the cost, and the next run after a reload starts from the summary', async () => {
    const prefix = `long-${counter++}-`;
    const first = await open(prefix, [...reads(5), { content: 'Read it five times.' }]);
    first.session.send('Read big.txt five times');
    await first.session.idle();
    await first.library.flush();
    const made = first.session.compaction.compactions;
    expect(made.length).toBeGreaterThan(0);
    const id = first.session.id;
    expect(await first.store.loadCompactions(id)).toEqual(made);
    const record = await first.store.getSession(id);
    const replies = first.session.messages.reduce((sum, m) => sum + (m.role === 'assistant' ? m.usage.input : 0), 0);
    expect(record!.tokens.input).toBe(replies + 100 * made.length);

    const html = new TextDecoder().decode((await buildExport(await prepareSessionExport(first.store, id, []), [], 'html')).data);
    expect(html.match(/data-role="compaction"/g)).toHaveLength(made.length);
    first.library.stop();

    const second = await open(prefix);
    expect(second.session.id).toBe(id);
    expect(second.session.compaction.compactions).toEqual(made);
    const { agentRequests } = second.script([{ content: 'Still with you.' }]);
    second.session.send('Where were we?');
    await second.session.idle();
    expect(firstText(agentRequests[0]).startsWith(SUMMARY_PREFIX)).toBe(true);
    expect(firstText(agentRequests[0])).toContain(made[made.length - 1].summary);
  });

  it('a fork from before a compaction sends the model the transcript before it; a fork after it, the summary', async () => {
    const s = await open(`fork-${counter++}-`, [{ content: 'Hi.' }]);
    s.session.send('Start');
    await s.session.idle();
    s.script([...reads(5), { content: 'Done reading.' }]);
    const readingSeq = s.session.messages.length;
    s.session.send('Read big.txt five times');
    await s.session.idle();
    s.script([{ content: 'Sure.' }]);
    const laterSeq = s.session.messages.length;
    s.session.send('One more thing');
    await s.session.idle();
    await s.library.flush();
    const parent = s.session.id;
    expect(s.session.compaction.compactions.every((c) => c.atSeq > readingSeq && c.atSeq <= laterSeq)).toBe(true);

    await s.library.fork(readingSeq);
    expect(s.session.compaction.compactions).toEqual([]);
    let requests = s.script([{ content: 'Forked early.' }]).agentRequests;
    s.session.send(s.session.draft);
    await s.session.idle();
    expect(firstText(requests[0])).toBe('Start');

    await s.library.open(parent);
    await s.library.fork(laterSeq);
    expect(s.session.compaction.compactions.length).toBeGreaterThan(0);
    requests = s.script([{ content: 'Forked late.' }]).agentRequests;
    s.session.send(s.session.draft);
    await s.session.idle();
    expect(firstText(requests[0]).startsWith(SUMMARY_PREFIX)).toBe(true);
  });
});

describe('storing a compaction', () => {
  it('waits for the messages it names, also when their write failed and is tried again', async () => {
    const store = createSessionStore({ prefix: `persist-${counter++}-` });
    cleanups.push(() => store.close());
    const { id } = await store.createSession();
    const runtime = await createEmbeddedRuntime();
    let refuse = true;
    const flaky: typeof store = {
      ...store,
      appendEntry: async (sessionId, message) => {
        if (refuse) throw new StorageFullError('The browser refused to store more.');
        return store.appendEntry(sessionId, message);
      },
    };
    const persistence = new SessionPersistence({ store: flaky, workspace: runtime, sessionId: id });
    const listeners = new Set<(event: SessionEvent) => void>();
    persistence.attach({ subscribe: (listener) => (listeners.add(listener), () => listeners.delete(listener)) });
    const tell = (event: SessionEvent) => listeners.forEach((listener) => listener(event));
    const compaction: CompactionEntry = {
      type: 'compaction', summary: '## Goal\nHi', firstKeptSeq: 1, atSeq: 2, tokensBefore: 900, tokensAfter: 300,
      readFiles: [], modifiedFiles: [], timestamp: 3, usage: { input: 100, output: 50, cacheRead: 0, cacheWrite: 0, cost: { total: 0.01 } },
    };

    tell({ type: 'message', message: { role: 'user', content: 'Hi', timestamp: 1 } });
    tell({ type: 'message', message: { ...partialReply, content: [{ type: 'text', text: 'Hello' }] } });
    tell({ type: 'compaction', compaction });
    await persistence.flush();
    expect(persistence.saveState).toBe('failed');
    expect(await store.loadCompactions(id)).toEqual([]);

    refuse = false;
    await persistence.retry();
    expect(await store.loadEntries(id)).toHaveLength(2);
    expect(await store.loadCompactions(id)).toEqual([compaction]);
    expect((await store.getSession(id))!.cost).toBeCloseTo(0.01);
  });
});

const partialReply: AssistantMessage = {
  role: 'assistant',
  content: [],
  provider: 'scripted',
  model: model.id,
  usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: { total: 0 } },
  stopReason: 'stop',
  timestamp: 2,
};

describe('a reply interrupted by a reload', () => {
  const partial = (content: AssistantMessage['content'], timestamp = 10): AssistantMessage => ({
    role: 'assistant',
    content,
    provider: 'scripted',
    model: model.id,
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: { total: 0 } },
    stopReason: 'stop',
    timestamp,
  });

  async function storeWithSession(): Promise<{ store: SessionStore; id: string }> {
    const store = createSessionStore({ prefix: `draft-${counter++}-` });
    cleanups.push(() => store.close());
    const { id } = await store.createSession();
    await store.appendEntry(id, { role: 'user', content: 'Write it', timestamp: 1 });
    return { store, id };
  }

  it('is stored closed as interrupted, with aborted results for its tool calls, and the slot is emptied', async () => {
    const { store, id } = await storeWithSession();
    await store.saveDraft(id, partial([{ type: 'text', text: 'Writing the file' }, { type: 'toolCall', id: 't1', name: 'write', arguments: { path: 'a' } }]));
    const messages = await recoverInterruptedReply(store, id, await store.loadEntries(id));
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'toolResult']);
    expect(isInterruptedReply(messages[1])).toBe(true);
    expect((messages[1] as AssistantMessage).errorMessage).toBe(INTERRUPTED_BY_RELOAD);
    expect(textOf(messages[2])).toBe(ABORTED_BY_RELOAD);
    expect(await store.loadEntries(id)).toEqual(messages);
    expect(await store.loadDraft(id)).toBeUndefined();
  });

  it('is only dropped when the completed reply was stored after all, and a damaged draft does not stop the open', async () => {
    const { store, id } = await storeWithSession();
    await store.appendEntry(id, partial([{ type: 'text', text: 'Complete answer' }], 12));
    await store.saveDraft(id, partial([{ type: 'text', text: 'Complete ans' }], 12));
    const stored = await store.loadEntries(id);
    expect(await recoverInterruptedReply(store, id, stored)).toEqual(stored);
    expect(await store.loadDraft(id)).toBeUndefined();

    await store.saveDraft(id, { role: 'user' } as unknown as AssistantMessage);
    expect(await recoverInterruptedReply(store, id, stored)).toEqual(stored);
    expect(await store.loadDraft(id)).toBeUndefined();
  });

  it('is saved while it streams and cleared once the completed reply is stored', async () => {
    const { store, id } = await storeWithSession();
    const runtime = await createEmbeddedRuntime();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const reply = partial([{ type: 'toolCall', id: 't1', name: 'read', arguments: { path: 'a.txt' } }]);
    const done: AssistantMessage = { ...reply, stopReason: 'toolUse' };
    const answer = { ...partial([{ type: 'text', text: 'Read it.' }], 20) };
    let calls = 0;
    // A reply whose tool call completes, then waits: the draft slot gets it at once, not after the usual delay.
    const streamFn: StreamFn = () => {
      const first = calls++ === 0;
      return {
        async *[Symbol.asyncIterator]() {
          if (!first) {
            yield { type: 'done', message: answer } as const;
            return;
          }
          yield { type: 'start', partial: reply } as const;
          yield { type: 'toolcall_end', contentIndex: 0, partial: reply } as const;
          await held;
          yield { type: 'done', message: done } as const;
        },
        result: async () => (first ? done : answer),
      };
    };
    const controller = new SessionController({
      id,
      workspace: runtime,
      tools: [],
      getSettings: () => ({ ...defaultSettings(), apiKey: 'k' }),
      resolveModel: () => model,
      streamFn,
      scheduleUpdate: (fn) => queueMicrotask(fn),
    });
    const writes: Promise<void>[] = [];
    const drafts = new ReplyDrafts({ store, sessionId: id, afterWrites: (job) => (writes.push(job()), writes[writes.length - 1]) });
    const detach = drafts.attach(controller);
    controller.send('Go');
    for (let i = 0; !(await store.loadDraft(id)); i++) {
      if (i > 500) throw new Error('the draft was never saved');
      await new Promise((r) => setTimeout(r, 2));
    }
    const saved = await store.loadDraft(id);
    expect(saved?.content.find((c) => c.type === 'toolCall')).toMatchObject({ name: 'read', arguments: { path: 'a.txt' } });
    release();
    await controller.idle();
    await Promise.all(writes);
    expect(await store.loadDraft(id)).toBeUndefined();
    detach();
  });

  it('comes back after a reload marked interrupted, and Continue finishes the turn', async () => {
    const prefix = `reload-${counter++}-`;
    const first = await open(prefix, [{ content: 'Hello.' }]);
    first.session.send('Hi');
    await first.session.idle();
    await first.library.flush();
    const id = first.session.id;
    await first.store.saveDraft(id, partial([{ type: 'text', text: 'Here is the first half of' }], Date.now()));
    first.library.stop();

    const second = await open(prefix);
    const last = second.session.messages[second.session.messages.length - 1];
    expect(isInterruptedReply(last)).toBe(true);
    expect(textOf(last)).toBe('Here is the first half of');
    expect(second.session.canContinue).toBe(true);
    const { agentRequests } = second.script([{ content: 'the answer, now complete.' }]);
    second.session.continue();
    await second.session.idle();
    const request = agentRequests[0];
    expect(textOf(request.messages[request.messages.length - 2])).toBe('Here is the first half of');
    expect(textOf(request.messages[request.messages.length - 1])).toBe(CONTINUE_PROMPT);
    expect(textOf(second.session.messages[second.session.messages.length - 1])).toBe('the answer, now complete.');
  });
});
