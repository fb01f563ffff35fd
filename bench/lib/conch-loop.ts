// Conch's loop on the loop bench's scripted run, wired as the app wires a run (src/app/session-controller.svelte.ts,
// agent-run.ts): the context guard before every model call, a Stop button's signal, and a read-like tool that
// declares its effects, so the batch ordering is paid as it is for the real read tool.
import { Type } from '@sinclair/typebox';
import { buildModelContext, ContextGuard, DEFAULT_COMPACTION_SETTINGS } from '../../src/agent/compaction';
import { runAgentLoop, type AgentTool } from '../../src/agent/index';
import { createScriptedStreamFn, toolCall, type ScriptedTurn } from '../../src/ai/providers/scripted';
import { testModel } from '../../src/ai/testing/test-model';
import { fileEffectOf } from '../../src/app/compaction/file-effects';
import { effectsOf } from '../../src/tools/catalog';
import { LOOP_ARGUMENTS, type LoopRun, type LoopShape } from './loop-shape';

const model = testModel({ contextWindow: 1_000_000 });

const readLike: AgentTool = {
  name: 'read',
  label: 'Read',
  description: 'Reads nothing.',
  parameters: Type.Object({ path: Type.String(), count: Type.Integer() }),
  effects: (args: { path: string }) => effectsOf('read', [`/project/${args.path}`]),
  async execute() {
    return { content: [{ type: 'text', text: 'ok' }] };
  },
};

function script(shape: LoopShape): ScriptedTurn[] {
  const turns: ScriptedTurn[] = [];
  for (let m = 0; m < shape.messages; m++) {
    const content = [];
    for (let c = 0; c < shape.calls; c++) content.push(toolCall('read', LOOP_ARGUMENTS, `c${m}_${c}`));
    turns.push({ content });
  }
  turns.push({ content: 'done' });
  return turns;
}

/** One timed run of Conch's loop (ms). */
export const conchLoop: LoopRun = async (shape) => {
  const turns = script(shape);
  const streamFn = createScriptedStreamFn(turns, { recordRequests: false });
  const controller = new AbortController();
  const started = performance.now();
  // A new session: an empty view, a fresh token counter inside the guard.
  const view = buildModelContext([], []);
  // The provider options as run-options.ts makes them (no output limit set: the guard clamps the model's maximum).
  const streamOptions = { apiKey: 'bench', maxTokens: undefined, thinking: undefined, onRetry: () => undefined };
  const guard = new ContextGuard({ context: view, model, streamFn, streamOptions, settings: DEFAULT_COMPACTION_SETTINGS, fileEffectOf });
  const stream = runAgentLoop(
    [{ role: 'user', content: 'go', timestamp: 0 }],
    { systemPrompt: '', messages: view.messages, tools: [readLike] },
    { model, streamFn, streamOptions, beforeModelCall: (call, signal) => guard.beforeModelCall(call, signal) },
    controller.signal,
  );
  let ends = 0;
  let errors = 0;
  for await (const event of stream) {
    if (event.type !== 'tool_execution_end') continue;
    ends++;
    if (event.isError) errors++;
  }
  const elapsed = performance.now() - started;
  if (errors > 0) throw new Error(`Conch: ${errors} tool calls failed; the bench is not measuring the success path`);
  if (ends !== shape.calls * shape.messages) throw new Error(`Conch ran ${ends} tool calls, not ${shape.calls * shape.messages}`);
  return elapsed;
};
