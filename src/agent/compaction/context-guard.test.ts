import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { toolCall } from '../../ai/providers/scripted';
import type { CompactionEntry, Message, StreamOptions } from '../../ai/types';
import { runAgentLoop } from '../loop';
import { expectValidRun, makeTool } from '../testing/loop-kit';
import type { AgentEvent } from '../types';
import type { CompactionOutcome } from './compact';
import { ContextGuard, type CompactionReason } from './context-guard';
import { estimateRequestTokens } from './estimate';
import { buildModelContext } from './model-context';
import { isContextOverflowMessage } from './overflow';
import { compactionThreshold, type CompactionSettings } from './settings';
import { bulk, fileEffectOf, scriptedWithSummaries, smallModel, summaryRequestText, turn, user, type SummaryAnswer } from './testing/transcripts';
import type { ScriptedTurnInput } from '../../ai/providers/scripted';

const model = smallModel(16_384);
const readTool = makeTool('read', Type.Object({ path: Type.String() }), (args) => ({
  content: [{ type: 'text', text: bulk(2_000, (args as { path: string }).path) }],
}));
const tooLong = { content: [], stopReason: 'error' as const, errorMessage: "The conversation no longer fits the model's context window (prompt is too long: 20500 tokens > 16384 maximum)." };

/** Runs a prompt on top of `history` with a ContextGuard as the loop's hook, the way the app wires it. */
async function runGuarded(
  turns: ScriptedTurnInput[],
  options: {
    history?: Message[];
    compactions?: CompactionEntry[];
    settings?: CompactionSettings;
    summaries?: SummaryAnswer;
    signal?: AbortSignal;
    maxOutputTokens?: number;
    /** Messages the person types while a compaction runs: queued, and polled by the loop after each tool batch. */
    typedDuringCompaction?: Message[];
  } = {},
) {
  const history = options.history ?? [];
  const compactions = [...(options.compactions ?? [])];
  const provider = scriptedWithSummaries(turns, options.summaries);
  const ended: { outcome: CompactionOutcome; reason: CompactionReason }[] = [];
  const started: CompactionReason[] = [];
  const queued: Message[] = [];
  const guard = new ContextGuard({
    context: buildModelContext(history, compactions),
    model,
    streamFn: provider.streamFn,
    settings: options.settings ?? { auto: true },
    maxOutputTokens: options.maxOutputTokens,
    fileEffectOf,
    onCompactionStart: (reason) => {
      started.push(reason);
      if (started.length === 1) queued.push(...(options.typedDuringCompaction ?? []));
    },
    onCompactionEnd: (outcome, reason) => {
      ended.push({ outcome, reason });
      if (outcome.ok) compactions.push(outcome.entry);
    },
  });
  const stream = runAgentLoop(
    [user('Go through every file.')],
    { systemPrompt: 'You are Conch.', messages: buildModelContext(history, options.compactions ?? []).messages, tools: [readTool] },
    {
      model,
      streamFn: provider.streamFn,
      beforeModelCall: (call, signal) => guard.beforeModelCall(call, signal),
      getSteeringMessages: async () => queued.splice(0),
    },
    options.signal,
  );
  const events: AgentEvent[] = [];
  for await (const event of stream) events.push(event);
  const appended = await stream.result();
  expectValidRun(events, appended);
  return { ...provider, events, appended, session: [...history, ...appended], compactions, started, ended };
}

const readTurns = (n: number): ScriptedTurnInput[] => [
  ...Array.from({ length: n }, (_, i) => ({ content: [toolCall('read', { path: `file${i}.ts` })] })),
  'All files read.',
];

describe('automatic compaction through the loop hook', () => {
  it('checks before every model call, compacts mid-run when the context crosses the line, and the run goes on', async () => {
    const run = await runGuarded(readTurns(12));
    expect(run.appended.at(-1)).toMatchObject({ role: 'assistant', content: [{ type: 'text', text: 'All files read.' }] });
    expect(run.ended.length).toBeGreaterThanOrEqual(2);
    expect(run.ended.every((e) => e.outcome.ok && e.reason === 'threshold')).toBe(true);
    const threshold = compactionThreshold(model.contextWindow);
    for (const request of run.agentRequests) expect(estimateRequestTokens(request)).toBeLessThanOrEqual(threshold);
    // Every request is exactly the view rebuilt from storage (the session's messages and entries) at that point.
    for (const request of run.agentRequests) {
      const seqsSent = request.messages.length;
      const atSeq = run.session.findIndex((m) => m === request.messages.at(-1)) + 1;
      const view = buildModelContext(run.session, run.compactions.filter((c) => c.atSeq <= atSeq), atSeq);
      expect(view.messages).toHaveLength(seqsSent);
      expect(view.messages.slice(view.compaction ? 1 : 0)).toEqual(request.messages.slice(view.compaction ? 1 : 0));
    }
    // The person's transcript has every tool result, in full.
    expect(run.session.filter((m) => m.role === 'toolResult')).toHaveLength(12);
  });

  it('delivers a message typed during a compaction after it, never losing it', async () => {
    const typed = user('Also update the changelog.');
    const run = await runGuarded(readTurns(8), { typedDuringCompaction: [typed] });
    expect(run.started.length).toBeGreaterThan(0);
    const seq = run.session.indexOf(typed);
    expect(seq).toBeGreaterThan(0);
    // It reached the model in the request after the batch it was typed during, and stays in the transcript.
    const firstSeeing = run.agentRequests.findIndex((request) => request.messages.includes(typed));
    expect(firstSeeing).toBeGreaterThan(0);
    // Later it is either still sent verbatim or carried by a summary: never lost from the model's view either.
    const latest = run.compactions.at(-1)!;
    if (seq < latest.firstKeptSeq) {
      expect(run.summaryRequests.some((request) => summaryRequestText(request).includes('Also update the changelog.'))).toBe(true);
    } else {
      expect(run.agentRequests.at(-1)!.messages).toContain(typed);
    }
  });

  it('clamps every request\'s max output so that its input and output fit the window', async () => {
    const run = await runGuarded(readTurns(4));
    const agentOptions = run.streamFn.options.filter((_, i) => run.streamFn.requests[i].tools.length > 0) as StreamOptions[];
    run.agentRequests.forEach((request, i) => {
      expect(agentOptions[i].maxTokens! + estimateRequestTokens(request)).toBeLessThanOrEqual(model.contextWindow);
    });
    expect(agentOptions[0].maxTokens).toBe(model.maxTokens);
    const asked = await runGuarded(['hi'], { maxOutputTokens: 2_000 });
    expect((asked.streamFn.options[0] as StreamOptions).maxTokens).toBe(2_000);
  });

  it('compacts the history before the first call of a run when it is already over the line', async () => {
    const history = Array.from({ length: 8 }, (_, n) => turn(n, 2_000)).flat();
    const run = await runGuarded(['Fine.'], { history });
    expect(run.started).toEqual(['threshold']);
    expect(run.compactions[0]).toMatchObject({ atSeq: 33 }); // the prompt (seq 32) was delivered before the call
    expect(run.agentRequests[0].messages[0].content).toMatch(/^The conversation before this point was compacted/);
  });

  it('recovers from a context overflow by compacting and sending the same request once more, unseen', async () => {
    const history = Array.from({ length: 3 }, (_, n) => turn(n, 2_000)).flat();
    const run = await runGuarded([tooLong, 'Recovered.'], { history });
    expect(run.ended.map((e) => [e.reason, e.outcome.ok])).toEqual([['overflow', true]]);
    expect(run.agentRequests).toHaveLength(2);
    expect(run.agentRequests[1].messages.at(-1)).toEqual(run.agentRequests[0].messages.at(-1));
    expect(run.agentRequests[1].messages[0].content).toMatch(/^The conversation before this point was compacted/);
    expect(run.appended.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(run.events.some((e) => e.type === 'message_end' && isContextOverflowMessage(e.message))).toBe(false);
  });

  it('reports a second overflow: the run ends with the provider\'s error, after one compaction', async () => {
    const history = Array.from({ length: 3 }, (_, n) => turn(n, 2_000)).flat();
    const run = await runGuarded([tooLong, tooLong, 'never'], { history });
    expect(run.ended).toHaveLength(1);
    expect(run.agentRequests).toHaveLength(2);
    const last = run.appended.at(-1)!;
    expect(isContextOverflowMessage(last)).toBe(true);
  });

  it('leaves everything as it was when the summary call fails, and does not retry it before every call', async () => {
    const history = Array.from({ length: 8 }, (_, n) => turn(n, 2_000)).flat();
    const run = await runGuarded(readTurns(2), {
      history,
      summaries: { content: [], stopReason: 'error', errorMessage: 'HTTP 529 overloaded' },
    });
    expect(run.ended).toHaveLength(1);
    expect(run.ended[0].outcome).toMatchObject({ ok: false, reason: 'failed' });
    expect(!run.ended[0].outcome.ok && run.ended[0].outcome.message).toContain('HTTP 529 overloaded');
    expect(run.compactions).toEqual([]);
    expect(run.agentRequests[0].messages.slice(0, 32)).toEqual(history);
  });

  it('does not compact by itself when auto-compaction is off', async () => {
    const history = Array.from({ length: 8 }, (_, n) => turn(n, 2_000)).flat();
    const run = await runGuarded([tooLong], { history, settings: { auto: false } });
    expect(run.started).toEqual([]);
    expect(isContextOverflowMessage(run.appended.at(-1)!)).toBe(true);
  });

  it('Stop during a compaction cancels it: nothing changes and the run ends as aborted', async () => {
    const history = Array.from({ length: 8 }, (_, n) => turn(n, 2_000)).flat();
    const controller = new AbortController();
    const run = await runGuarded(['never sent'], {
      history,
      signal: controller.signal,
      summaries: () => {
        queueMicrotask(() => controller.abort());
        return { content: 'too late', delayMs: 50 };
      },
    });
    expect(run.ended.map((e) => e.outcome)).toMatchObject([{ ok: false, reason: 'aborted' }]);
    expect(run.compactions).toEqual([]);
    expect(run.agentRequests).toEqual([]);
    expect(run.appended.at(-1)).toMatchObject({ role: 'assistant', stopReason: 'aborted' });
  });
});
