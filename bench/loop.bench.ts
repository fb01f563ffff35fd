// The agent loop's overhead per tool call: a scripted provider, a no-op tool with a two-field schema, and
// arguments that need coercion ("7" -> 7), so lookup, validation, events and transcript bookkeeping are all paid.
// Prints figures; asserts nothing.
import { Type } from '@sinclair/typebox';
import { createScriptedStreamFn, toolCall, type ScriptedTurn } from '../src/ai/providers/scripted';
import { testModel } from '../src/ai/testing/test-model';
import { runAgentLoop, type AgentTool } from '../src/agent/index';

const model = testModel({ contextWindow: 1_000_000 });

const noop: AgentTool = {
  name: 'noop',
  label: 'No-op',
  description: 'Does nothing.',
  parameters: Type.Object({ path: Type.String(), count: Type.Integer() }),
  async execute() {
    return { content: [{ type: 'text', text: 'ok' }] };
  },
};

function script(callsPerMessage: number, messages: number): ScriptedTurn[] {
  const turns: ScriptedTurn[] = [];
  for (let m = 0; m < messages; m++) {
    const content = [];
    for (let c = 0; c < callsPerMessage; c++) {
      content.push(toolCall('noop', { path: 'src/a.ts', count: '7' }, `c${m}_${c}`));
    }
    turns.push({ content });
  }
  turns.push({ content: 'done' });
  return turns;
}

async function runOnce(callsPerMessage: number, messages: number): Promise<number> {
  const streamFn = createScriptedStreamFn(script(callsPerMessage, messages), { recordRequests: false });
  const controller = new AbortController(); // as in the app: every run has a Stop button
  const started = performance.now();
  const stream = runAgentLoop(
    [{ role: 'user', content: 'go', timestamp: 0 }],
    { systemPrompt: '', messages: [], tools: [noop] },
    { model, streamFn },
    controller.signal,
  );
  let errors = 0;
  for await (const event of stream) if (event.type === 'tool_execution_end' && event.isError) errors++;
  const elapsed = performance.now() - started;
  if (errors > 0) throw new Error(`${errors} tool calls failed: the bench is not measuring the success path`);
  return elapsed;
}

const shapes: [callsPerMessage: number, messages: number][] = [
  [1, 1000],
  [10, 100],
  [100, 10],
];

for (let warm = 0; warm < 5; warm++) for (const [perMessage, messages] of shapes) await runOnce(perMessage, messages);

for (const [perMessage, messages] of shapes) {
  const runs: number[] = [];
  for (let i = 0; i < 7; i++) runs.push(await runOnce(perMessage, messages));
  runs.sort((a, b) => a - b);
  const median = runs[Math.floor(runs.length / 2)];
  const perCall = (ms: number) => ((ms * 1000) / (perMessage * messages)).toFixed(1);
  console.log(
    `loop overhead (${perMessage} call${perMessage > 1 ? 's' : ''}/message x ${messages}): ` +
      `${perCall(median)} µs/call (median of ${runs.length}, best ${perCall(runs[0])})`,
  );
}
