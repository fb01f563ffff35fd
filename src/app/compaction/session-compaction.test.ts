// The session controller with compaction wired in, against a scripted provider with a 16k-token window: runs that
// cross the line compact by themselves and finish, overflow errors are recovered, the person's /compact (with focus,
// cancel, failure, queued messages, compact harder), and Continue after a Stop.
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { estimateRequestTokens, isContextOverflowMessage, SUMMARY_PREFIX } from '../../agent/compaction';
import { bulk, scriptedWithSummaries, smallModel, summaryRequestText, type SummaryAnswer } from '../../agent/compaction/testing/transcripts';
import type { AgentTool } from '../../agent/types';
import { toolCall, type ScriptedTurnInput } from '../../ai/providers/scripted';
import type { CompactionEntry, Message, StreamRequest } from '../../ai/types';
import { createEmbeddedRuntime } from '../../runtime/embedded';
import { CONTINUE_PROMPT, SessionController } from '../session/controller.svelte';
import { defaultSettings, type Settings } from '../settings/settings';
import { createTodoTool } from '../../tools/todo';

const model = smallModel(16_384, 4_096);
const OVERFLOW = 'prompt is too long: 20000 tokens > 16384 maximum';

/** A bash stand-in whose output is `tokens` tokens of text, and which waits for `gate` when given. */
function bigOutputTool(tokens: number, gate?: () => Promise<void>): AgentTool {
  return {
    name: 'bash',
    label: 'bash',
    description: 'Run a command.',
    parameters: Type.Object({ command: Type.String() }),
    execute: async (_id, _args, signal) => {
      if (gate) await gate();
      if (signal?.aborted) throw new Error('aborted');
      return { content: [{ type: 'text', text: bulk(tokens, 'out') }] };
    },
  };
}

async function session(
  turns: ScriptedTurnInput[],
  options: { summaries?: SummaryAnswer; settings?: Partial<Settings>; tool?: AgentTool; tools?: AgentTool[] } = {},
) {
  const settings: Settings = { ...defaultSettings(), apiKey: 'k', activeTools: ['bash'], ...options.settings };
  const scripted = scriptedWithSummaries(turns, options.summaries);
  const events: string[] = [];
  const controller = new SessionController({
    workspace: await createEmbeddedRuntime(),
    tools: options.tools ?? [options.tool ?? bigOutputTool(3_000)],
    getSettings: () => settings,
    resolveModel: () => model,
    streamFn: scripted.streamFn,
    scheduleUpdate: (fn) => queueMicrotask(fn),
  });
  controller.subscribe((event) => {
    if (event.type === 'message') events.push(`message ${controller.messages.indexOf(event.message)}`);
    else if (event.type === 'compaction') events.push(`compaction at ${event.compaction.atSeq}`);
  });
  return { controller, settings, events, ...scripted };
}

const bashTurns = (n: number): ScriptedTurnInput[] => Array.from({ length: n }, (_, i) => ({ content: [toolCall('bash', { command: `step ${i}` })] }));
const firstText = (request: StreamRequest) => {
  const content = request.messages[0]?.content;
  return typeof content === 'string' ? content : content?.map((c) => (c.type === 'text' ? c.text : '')).join('') ?? '';
};
const lastMessage = (request: StreamRequest): Message => request.messages[request.messages.length - 1];
const textOf = (message: Message) =>
  typeof message.content === 'string' ? message.content : message.content.map((c) => (c.type === 'text' ? c.text : '')).join('');

describe('a session with compaction', () => {
  it('compacts in the middle of a long run by itself, keeps every request within the window, and tells persistence in order', async () => {
    const { controller, agentRequests, summaryRequests, events } = await session([...bashTurns(12), { content: 'All twelve steps done.' }]);
    controller.send('Run the twelve steps');
    await controller.idle();

    const last = controller.messages[controller.messages.length - 1];
    expect(textOf(last)).toBe('All twelve steps done.');
    // 36,000 tokens of tool output went through a 16k window.
    expect(controller.messages.filter((m) => m.role === 'toolResult')).toHaveLength(12);
    for (const request of agentRequests) expect(estimateRequestTokens(request)).toBeLessThan(model.contextWindow);
    const compactions = controller.compaction.compactions;
    expect(compactions.length).toBeGreaterThan(1);
    expect(summaryRequests).toHaveLength(compactions.length);
    // Each compaction is told right after the message before its atSeq, so a store can check what it names.
    for (const compaction of compactions) {
      const at = events.indexOf(`compaction at ${compaction.atSeq}`);
      expect(at).toBeGreaterThan(events.indexOf(`message ${compaction.atSeq - 1}`));
      expect(at).toBeLessThan(events.indexOf(`message ${compaction.atSeq}`));
    }
    // The second compaction updates the first summary rather than starting over.
    expect(summaryRequestText(summaryRequests[1])).toContain('Summary 1');
    // Summary calls count in the totals (100 in / 50 out each, in the scripted provider).
    const replies = controller.messages.filter((m) => m.role === 'assistant').reduce((sum, m) => sum + (m.role === 'assistant' ? m.usage.input : 0), 0);
    expect(controller.totals.input).toBe(replies + 100 * compactions.length);
    // The meter counts the compacted view, not the 36k tokens of the transcript.
    expect(controller.contextTokens).toBeLessThan(model.contextWindow);
  });

  it('starts the next run from the summary, with the kept messages after it', async () => {
    const { controller, agentRequests } = await session([...bashTurns(6), { content: 'Done.' }, { content: 'Here is the answer.' }]);
    controller.send('Six steps');
    await controller.idle();
    expect(controller.compaction.compactions.length).toBeGreaterThan(0);
    const latest = controller.compaction.compactions.at(-1)!;
    controller.send('And now?');
    await controller.idle();
    const request = agentRequests[agentRequests.length - 1];
    expect(firstText(request).startsWith(SUMMARY_PREFIX)).toBe(true);
    expect(firstText(request)).toContain(latest.summary);
    expect(textOf(lastMessage(request))).toBe('And now?');
  });

  it('recovers from a provider context overflow by compacting once and sending the same request again', async () => {
    const { controller, agentRequests, summaryRequests } = await session([
      { content: 'First answer.' },
      { content: [], stopReason: 'error', errorMessage: OVERFLOW },
      { content: 'Answered after the compaction.' },
    ]);
    controller.send('Hello');
    await controller.idle();
    controller.send('Tell me more');
    await controller.idle();

    expect(summaryRequests).toHaveLength(1);
    expect(agentRequests).toHaveLength(3);
    expect(firstText(agentRequests[2]).startsWith(SUMMARY_PREFIX)).toBe(true);
    // The refused attempt never shows: no error in the transcript, no Retry.
    expect(controller.messages.some((m) => m.role === 'assistant' && m.stopReason === 'error')).toBe(false);
    expect(textOf(controller.messages[controller.messages.length - 1])).toBe('Answered after the compaction.');
    expect(controller.compaction.compactions).toHaveLength(1);
  });

  it('reports a second overflow, and "compact harder" keeps less and sends the request again', async () => {
    const { controller, summaryRequests } = await session([
      ...bashTurns(2),
      { content: 'Two steps done.' },
      { content: [], stopReason: 'error', errorMessage: OVERFLOW },
      { content: [], stopReason: 'error', errorMessage: OVERFLOW },
      { content: 'Fits now.' },
    ]);
    controller.send('Two steps');
    await controller.idle();
    controller.send('Continue the work');
    await controller.idle();

    const failed = controller.failedMessage;
    expect(failed && isContextOverflowMessage(failed)).toBe(true);
    expect(controller.canContinue).toBe(false); // Retry, not Continue, after a provider error
    const first = controller.compaction.compactions[0];

    controller.compact({ harder: true });
    expect(controller.running).toBe(true);
    await controller.idle();
    expect(summaryRequests).toHaveLength(2);
    const harder = controller.compaction.compactions[1];
    expect(harder.firstKeptSeq).toBeGreaterThan(first.firstKeptSeq);
    expect(textOf(controller.messages[controller.messages.length - 1])).toBe('Fits now.');
  });

  it('/compact with a focus puts it in the summary request and adds nothing to the transcript', async () => {
    const { controller, summaryRequests, settings } = await session([...bashTurns(1), { content: 'Done.' }]);
    settings.compaction.auto = false;
    controller.send('One step');
    await controller.idle();
    const before = controller.messages;

    controller.send('/compact keep the API design');
    expect(controller.compaction.active?.reason).toBe('manual');
    await controller.idle();

    expect(summaryRequestText(summaryRequests[0])).toContain('keep the API design');
    expect(controller.messages).toBe(before);
    expect(controller.compaction.compactions).toHaveLength(1);
    expect(controller.compaction.compactions[0].focus).toBe('keep the API design');
    expect(controller.compaction.active).toBeNull();
  });

  it('Stop during a compaction cancels it and changes nothing', async () => {
    const { controller } = await session([{ content: 'A reply long enough to compact. '.repeat(20) }], {
      summaries: { content: 'never finishes', delayMs: 60_000 },
    });
    controller.send('Hello');
    await controller.idle();
    const before = controller.messages;
    const totals = controller.totals;

    controller.compact();
    expect(controller.compaction.active).not.toBeNull();
    controller.abort();
    await controller.idle();

    expect(controller.messages).toBe(before);
    expect(controller.compaction.compactions).toEqual([]);
    expect(controller.compaction.notice).toMatch(/cancelled; nothing changed/);
    expect(controller.totals).toEqual(totals);
  });

  it('a failed summary leaves the session as it was and says why', async () => {
    const { controller } = await session([{ content: 'Some answer to compact. '.repeat(20) }], {
      summaries: { content: [], stopReason: 'error', errorMessage: '429 Too Many Requests: rate limited' },
    });
    controller.send('Hello');
    await controller.idle();
    const before = controller.messages;

    controller.send('/compact');
    await controller.idle();

    expect(controller.messages).toBe(before);
    expect(controller.compaction.compactions).toEqual([]);
    expect(controller.compaction.notice).toMatch(/429 Too Many Requests: rate limited.*unchanged/);
  });

  it('a message sent during a compaction is queued and delivered after it', async () => {
    const compactions: CompactionEntry[] = [];
    const { controller, agentRequests } = await session([{ content: 'First. '.repeat(40) }, { content: 'Got the follow-up.' }], {
      summaries: { content: '## Goal\nSaid hello', delayMs: 20 },
    });
    controller.subscribe((event) => {
      if (event.type === 'compaction') compactions.push(event.compaction);
    });
    controller.send('Hello');
    await controller.idle();

    controller.send('/compact');
    controller.send('A follow-up typed meanwhile');
    expect(controller.queued.map(textOf)).toEqual(['A follow-up typed meanwhile']);
    await controller.idle();
    await controller.idle();

    expect(compactions).toHaveLength(1);
    expect(controller.queued).toEqual([]);
    const request = agentRequests[1];
    expect(firstText(request).startsWith(SUMMARY_PREFIX)).toBe(true);
    expect(textOf(lastMessage(request))).toBe('A follow-up typed meanwhile');
    expect(textOf(controller.messages[controller.messages.length - 1])).toBe('Got the follow-up.');
  });

  it('/compact while the agent works says to wait, and queues nothing', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { controller } = await session([...bashTurns(1), { content: 'Done.' }], { tool: bigOutputTool(10, () => gate) });
    controller.send('Work');
    controller.send('/compact');
    expect(controller.compaction.notice).toMatch(/agent is working/);
    expect(controller.queued).toEqual([]);
    release();
    await controller.idle();
  });
});

describe('the todo list across compactions', () => {
  it('is re-stated with the summary once the call that set it is summarised away, and still after a second compaction', async () => {
    const todos = [
      { content: 'Run the twelve steps', status: 'in_progress' },
      { content: 'Report what they printed', status: 'pending' },
    ];
    const { controller, agentRequests } = await session(
      [{ content: [toolCall('todo', { todos })] }, ...bashTurns(12), { content: 'All twelve steps done.' }],
      { settings: { activeTools: ['bash', 'todo'] }, tools: [createTodoTool(), bigOutputTool(3_000)] },
    );
    controller.send('Run the twelve steps');
    await controller.idle();

    const compactions = controller.compaction.compactions;
    expect(compactions.length).toBeGreaterThanOrEqual(2);
    expect(compactions.every((c) => c.todos?.length === 2)).toBe(true);
    const compacted = agentRequests.filter((r) => firstText(r).startsWith(SUMMARY_PREFIX));
    expect(compacted.length).toBeGreaterThan(0);
    for (const request of compacted) {
      // The todo call itself is no longer in what the model is sent; the list is, with the summary.
      expect(JSON.stringify(request.messages.slice(1))).not.toContain('"name":"todo"');
      expect(firstText(request)).toContain('Your todo list as it stands (0/2 done');
      expect(firstText(request)).toContain('[~] Run the twelve steps\n[ ] Report what they printed');
    }
  });
});

describe('Continue', () => {
  it('after a Stop mid-reply sends the partial reply and asks the model to go on; not after a provider error', async () => {
    const { controller, agentRequests } = await session([
      { content: 'The first half of a reply that goes on and on', chunkSize: 4, delayMs: 5 },
      { content: 'and its second half.' },
    ]);
    controller.send('Talk');
    while (!controller.streaming || textOf(controller.streaming).length < 12) await new Promise((r) => setTimeout(r, 2));
    controller.abort();
    await controller.idle();
    const partial = controller.messages[controller.messages.length - 1];
    expect(partial.role === 'assistant' && partial.stopReason).toBe('aborted');
    expect(controller.canContinue).toBe(true);

    controller.continue();
    await controller.idle();
    const request = agentRequests[1];
    expect(request.messages.at(-2)).toBe(partial);
    expect(textOf(lastMessage(request))).toBe(CONTINUE_PROMPT);
    expect(textOf(controller.messages[controller.messages.length - 1])).toBe('and its second half.');
    expect(controller.canContinue).toBe(false);
  });

  it('after a Stop during a tool call goes on from the aborted result', async () => {
    let started: () => void = () => undefined;
    const running = new Promise<void>((resolve) => (started = resolve));
    const { controller, agentRequests } = await session([...bashTurns(1), { content: 'Carried on.' }], {
      tool: {
        ...bigOutputTool(10),
        execute: (_id, _args, signal) =>
          new Promise((_resolve, reject) => {
            started();
            signal?.addEventListener('abort', () => reject(new Error('aborted')));
          }),
      },
    });
    controller.send('Run it');
    await running;
    controller.abort();
    await controller.idle();
    expect(controller.canContinue).toBe(true);

    controller.continue();
    await controller.idle();
    expect(lastMessage(agentRequests[1]).role).toBe('toolResult');
    expect(textOf(controller.messages[controller.messages.length - 1])).toBe('Carried on.');
  });
});
