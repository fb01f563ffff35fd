// Compaction's costs: the context estimator over a 5,000-message session (from scratch and incrementally, as the
// loop's hook calls it before every model call), a compaction's bookkeeping without the model call, and the tokens
// sent per turn over a scripted 60-turn session in a 16k window with large tool outputs, against sending everything.
// Prints figures; asserts nothing.
import { Type } from '@sinclair/typebox';
import { createScriptedStreamFn, toolCall } from '../src/ai/providers/scripted';
import type { AssistantMessage, AssistantMessageStream, Message, StreamFn, Tool } from '../src/ai/types';
import { emptyUsage } from '../src/ai/types';
import { runAgentLoop, type AgentTool } from '../src/agent/index';
import {
  buildModelContext,
  compactContext,
  ContextGuard,
  ContextTokenCounter,
  estimateRequestTokens,
  SUMMARY_SYSTEM_PROMPT,
  type CompactionEntry,
} from '../src/agent/compaction/index';
import { fileEffectOf, smallModel } from '../src/agent/compaction/testing/transcripts';
import { longTranscript } from './lib/long-transcript';

const SYSTEM_PROMPT = 'You are Conch, a coding agent in a browser tab. '.repeat(30);
const TOOLS: Tool[] = ['read', 'bash', 'edit', 'write'].map((name) => ({
  name,
  description: `The ${name} tool.`,
  parameters: Type.Object({ path: Type.String(), command: Type.Optional(Type.String()) }),
}));

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}
const median = (values: number[]) => percentile(values, 0.5);
const ms = (value: number) => `${value < 0.1 ? value.toFixed(3) : value.toFixed(2)} ms`;

// --- 1. The estimator over 5,000 messages -------------------------------------------------------------------------
{
  // No usage anywhere: the worst case, where every message is estimated (a session just imported or just compacted).
  const session = longTranscript(5_000).map((m): Message => (m.role === 'assistant' ? { ...m, usage: emptyUsage() } : m));
  const request = { systemPrompt: SYSTEM_PROMPT, tools: TOOLS, messages: session };

  const scratch: number[] = [];
  for (let i = 0; i < 20; i++) {
    const started = performance.now();
    estimateRequestTokens(request);
    scratch.push(performance.now() - started);
  }
  const counter = new ContextTokenCounter();
  let started = performance.now();
  const tokens = counter.contextTokens(request);
  const first = performance.now() - started;

  // As the loop grows its transcript: one message appended, then the count before the next call.
  const growing = session.slice(0, 4_000);
  counter.contextTokens({ ...request, messages: growing });
  const perCall: number[] = [];
  for (const message of session.slice(4_000)) {
    growing.push(message);
    started = performance.now();
    counter.contextTokens({ ...request, messages: growing });
    perCall.push(performance.now() - started);
  }
  // A fresh array of the same messages (the app rebuilds its view): every estimate is remembered.
  const rebuilt: number[] = [];
  for (let i = 0; i < 20; i++) {
    const copy = session.slice();
    started = performance.now();
    counter.contextTokens({ ...request, messages: copy });
    rebuilt.push(performance.now() - started);
  }
  // With usage, as in a live session: only the messages after the last reply are estimated.
  const live = longTranscript(5_000);
  const withUsage: number[] = [];
  for (let i = 0; i < 200; i++) {
    started = performance.now();
    counter.contextTokens({ ...request, messages: live });
    withUsage.push(performance.now() - started);
  }
  console.log(`estimator, 5,000 messages (${tokens.toLocaleString('en')} tokens, no usage):`);
  console.log(`  from scratch:                        ${ms(median(scratch))} per call (median of ${scratch.length})`);
  console.log(`  first call of a counter:             ${ms(first)}`);
  console.log(`  incremental, one message appended:   ${ms(median(perCall))} per call (median of ${perCall.length}, p99 ${ms(percentile(perCall, 0.99))})  target < 5 ms`);
  console.log(`  same messages in a new array:        ${ms(median(rebuilt))} per call`);
  console.log(`  with usage (live session):           ${ms(median(withUsage))} per call`);
}

// --- 2. Compaction bookkeeping, the model call excluded -----------------------------------------------------------
{
  /** A StreamFn answering at once with a fixed summary; the time spent inside it is measured and taken out. */
  let insideModel = 0;
  const instant: StreamFn = (model) => {
    const started = performance.now();
    const message: AssistantMessage = {
      role: 'assistant', content: [{ type: 'text', text: '## Goal\nBench summary.' }], provider: model.provider, model: model.id,
      usage: { ...emptyUsage(), input: 1, output: 1 }, stopReason: 'stop', timestamp: 0,
    };
    const stream: AssistantMessageStream = { async *[Symbol.asyncIterator]() {}, result: async () => message };
    insideModel += performance.now() - started;
    return stream;
  };
  // A session whose context just crossed a 200k window (the usual automatic compaction), a 16k window's, and a
  // whole 5,000-message session compacted at once (an imported session: the worst case).
  const fullWindow = (tokens: number) => {
    const all = longTranscript(5_000);
    const counter = new ContextTokenCounter();
    let from = all.length;
    for (let total = 0; from > 0 && total < tokens; ) total += counter.messageTokens(all[--from]);
    while (from < all.length && all[from].role !== 'user') from++;
    return all.slice(from);
  };
  const cases: [string, Message[], number][] = [
    ['a full 200k window', fullWindow(185_000), 200_000],
    ['a full 16k window', fullWindow(12_500), 16_384],
    ['5,000 messages at once (450k tokens, 200k window)', longTranscript(5_000), 200_000],
  ];
  for (const [label, session, window] of cases) {
    const model = smallModel(window, 8_192);
    const times: number[] = [];
    let calls = 0;
    for (let i = 0; i < 21; i++) {
      insideModel = 0;
      let summaryCalls = 0;
      const counting: StreamFn = (...args) => (summaryCalls++, instant(...args));
      const started = performance.now();
      const outcome = await compactContext({
        context: buildModelContext(session, []), systemPrompt: SYSTEM_PROMPT, tools: TOOLS, model, streamFn: counting,
        fileEffectOf, settings: { auto: true },
      });
      times.push(performance.now() - started - insideModel);
      calls = summaryCalls;
      if (!outcome.ok) throw new Error(outcome.message);
    }
    console.log(
      `compaction bookkeeping, ${label}, ${session.length.toLocaleString('en')} messages: ${ms(median(times))} ` +
        `(median of ${times.length}, best ${ms(Math.min(...times))}; ${calls} summary call${calls === 1 ? '' : 's'} excluded)  target < 20 ms`,
    );
  }
}

// --- 3. Tokens sent per turn over a 60-turn session in a 16k window --------------------------------------------------
{
  const model = smallModel(16_384, 8_192);
  const TURNS = 60;
  const OUTPUT_CHARS = 16_000; // about 4,000 tokens per tool output; 240k tokens over the session
  const bigOutput = (n: number) => `${`line ${n}: ${'x'.repeat(70)}\n`.repeat(Math.ceil(OUTPUT_CHARS / 79))}`.slice(0, OUTPUT_CHARS);
  const read: AgentTool = {
    name: 'read', label: 'read', description: 'Read a file.', parameters: Type.Object({ path: Type.String() }),
    async execute(_id, args) {
      const path = (args as { path: string }).path;
      return { content: [{ type: 'text', text: bigOutput(Number(path.replace(/\D/g, ''))) }] };
    },
  };
  let agentCall = 0;
  let summaryCalls = 0;
  let summaryInput = 0;
  const sent: number[] = [];
  const streamFn = createScriptedStreamFn((request) => {
    const size = estimateRequestTokens(request);
    if (request.systemPrompt === SUMMARY_SYSTEM_PROMPT) {
      summaryCalls++;
      summaryInput += size;
      return { content: `## Goal\nRead every file.\n## Progress\n### Done\n- Summary ${summaryCalls}.`, usage: { input: size, output: 30 } };
    }
    sent.push(size);
    agentCall++;
    if (agentCall > TURNS) return { content: 'All files read.', usage: { input: size, output: 5 } };
    return { content: [toolCall('read', { path: `file${agentCall}.ts` })], usage: { input: size, output: 12 } };
  }, { recordRequests: false });

  const compactions: CompactionEntry[] = [];
  const counter = new ContextTokenCounter();
  const guard = new ContextGuard({
    context: buildModelContext([], []), model, streamFn, settings: { auto: true }, fileEffectOf, counter,
    onCompactionEnd: (outcome) => {
      if (outcome.ok) compactions.push(outcome.entry);
    },
  });
  const hookTimes: number[] = [];
  const run = runAgentLoop(
    [{ role: 'user', content: 'Read every file, one at a time.', timestamp: 0 }],
    { systemPrompt: SYSTEM_PROMPT, messages: [], tools: [read] },
    {
      model, streamFn,
      beforeModelCall: async (call, signal) => {
        const started = performance.now();
        const before = compactions.length;
        const plan = await guard.beforeModelCall(call, signal);
        if (compactions.length === before) hookTimes.push(performance.now() - started);
        return plan;
      },
    },
  );
  for await (const _event of run) void _event;
  const transcript = await run.result();

  // Sending everything: each call would carry the whole transcript up to that point.
  const everything: number[] = [];
  const tools = [{ name: read.name, description: read.description, parameters: read.parameters }];
  for (const [i, message] of transcript.entries()) {
    if (message.role === 'assistant') everything.push(estimateRequestTokens({ systemPrompt: SYSTEM_PROMPT, tools, messages: transcript.slice(0, i) }));
  }
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  const outputs = transcript.filter((m) => m.role === 'toolResult').length;
  console.log(`60-turn session, 16k window, ${outputs} tool outputs of ~${OUTPUT_CHARS / 4} tokens (${((outputs * OUTPUT_CHARS) / 4).toLocaleString('en')} in all):`);
  const last = transcript.at(-1);
  console.log(`  finished: ${last?.role === 'assistant' && last.stopReason === 'stop' ? 'yes' : 'no'}, ${compactions.length} compactions, ${summaryCalls} summary calls (${summaryInput.toLocaleString('en')} tokens in)`);
  console.log(`  tokens sent per call, compacting:    mean ${Math.round(sum(sent) / sent.length).toLocaleString('en')}, max ${Math.max(...sent).toLocaleString('en')} (window ${model.contextWindow.toLocaleString('en')})`);
  console.log(`  tokens sent per call, everything:    mean ${Math.round(sum(everything) / everything.length).toLocaleString('en')}, max ${Math.max(...everything).toLocaleString('en')}`);
  console.log(`  total sent: ${sum(sent).toLocaleString('en')} + ${summaryInput.toLocaleString('en')} for summaries vs ${sum(everything).toLocaleString('en')}: ratio ${((sum(sent) + summaryInput) / sum(everything)).toFixed(3)}`);
  console.log(`  the loop hook without compacting:    ${ms(median(hookTimes))} per call (median of ${hookTimes.length})`);
}
