// Pi's agent loop (pi-agent-core's agentLoop) on the loop bench's scripted run: a fake stream function that replays
// prepared turns with Pi's own event stream and event shapes, as cheaply as Conch's scripted provider replays them
// (a fresh partial message per call, start / toolcall_start / toolcall_delta / toolcall_end per call, done), and a
// no-op tool with the same two-field schema. Pi is loaded from the folder bench/lib/pi-install.ts made, so only the
// few shapes used here are declared.
import type { PiInstall } from './pi-install';
import { LOOP_ARGUMENTS, type LoopRun, type LoopShape } from './loop-shape';

type PiToolCall = { type: 'toolCall'; id: string; name: string; arguments: Record<string, unknown> };
type PiAssistant = {
  role: 'assistant';
  content: (PiToolCall | { type: 'text'; text: string })[];
  api: string;
  provider: string;
  model: string;
  usage: PiUsage;
  stopReason: 'stop' | 'toolUse';
  timestamp: number;
};
type PiUsage = {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  totalTokens: number;
  cost: { input: number; output: number; cacheRead: number; cacheWrite: number; total: number };
};
type PiStream = AsyncIterable<unknown> & { push(event: unknown): void; end(result?: PiAssistant): void };
type PiEvent = { type: string; isError?: boolean };
type PiTool = {
  name: string;
  label: string;
  description: string;
  parameters: object;
  execute(): Promise<{ content: { type: 'text'; text: string }[]; details: undefined }>;
};
type PiModules = {
  agentLoop(
    prompts: unknown[],
    context: { messages: unknown[]; tools: PiTool[] },
    config: { model: object; convertToLlm(messages: unknown[]): unknown[] },
    signal: AbortSignal | undefined,
    streamFn: () => PiStream,
  ): AsyncIterable<PiEvent>;
  AssistantMessageEventStream: new () => PiStream;
  obj(properties: Record<string, object>): object;
  str(): object;
  int(): object;
};

const model = {
  id: 'script-1',
  name: 'Script',
  api: 'scripted',
  provider: 'scripted',
  baseUrl: 'http://127.0.0.1',
  input: ['text'],
  reasoning: false,
  cost: { input: 3, output: 15, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 1_000_000,
  maxTokens: 8_000,
};

type PlannedTurn = { kind: 'calls'; ids: string[] } | { kind: 'text'; text: string };

/** Loads Pi from `install` and returns one timed run of a shape (ms). */
export async function piLoop(install: Extract<PiInstall, { ok: true }>): Promise<LoopRun> {
  const [core, ai, schema] = await Promise.all([
    import(install.entries['pi-agent-core']),
    import(install.entries['pi-ai']),
    import(install.entries['pi-schema']),
  ]);
  const pi: PiModules = {
    agentLoop: core.agentLoop,
    AssistantMessageEventStream: ai.AssistantMessageEventStream,
    obj: schema.obj,
    str: schema.str,
    int: schema.int,
  };
  const tool: PiTool = {
    name: 'read',
    label: 'Read',
    description: 'Reads nothing.',
    parameters: pi.obj({ path: pi.str(), count: pi.int() }),
    async execute() {
      return { content: [{ type: 'text', text: 'ok' }], details: undefined };
    },
  };

  return async (shape: LoopShape) => {
    const turns = plannedTurns(shape);
    let turn = 0;
    const streamFn = () => replay(pi, turns[turn++] ?? { kind: 'text', text: 'out of turns' });
    const controller = new AbortController();
    const started = performance.now();
    let ends = 0;
    let errors = 0;
    const events = pi.agentLoop(
      [{ role: 'user', content: 'go', timestamp: 0 }],
      { messages: [], tools: [tool] },
      // Pi's loop requires a conversion to provider messages; the identity is the cheapest one.
      { model, convertToLlm: (messages) => messages },
      controller.signal,
      streamFn,
    );
    for await (const event of events) {
      if (event.type !== 'tool_execution_end') continue;
      ends++;
      if (event.isError) errors++;
    }
    const elapsed = performance.now() - started;
    if (errors > 0) throw new Error(`Pi: ${errors} tool calls failed; the bench is not measuring the success path`);
    if (ends !== shape.calls * shape.messages) throw new Error(`Pi ran ${ends} tool calls, not ${shape.calls * shape.messages}`);
    return elapsed;
  };
}

function plannedTurns(shape: LoopShape): PlannedTurn[] {
  const turns: PlannedTurn[] = [];
  for (let m = 0; m < shape.messages; m++) {
    const ids: string[] = [];
    for (let c = 0; c < shape.calls; c++) ids.push(`c${m}_${c}`);
    turns.push({ kind: 'calls', ids });
  }
  turns.push({ kind: 'text', text: 'done' });
  return turns;
}

// Every event is pushed before the loop reads the first one, as Conch's scripted provider buffers them.
function replay(pi: PiModules, turn: PlannedTurn): PiStream {
  const stream = new pi.AssistantMessageEventStream();
  const partial: PiAssistant = {
    role: 'assistant',
    content: [],
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
    stopReason: 'stop',
    timestamp: Date.now(),
  };
  stream.push({ type: 'start', partial });
  if (turn.kind === 'text') {
    partial.content.push({ type: 'text', text: turn.text });
    stream.push({ type: 'text_delta', contentIndex: 0, delta: turn.text, partial });
  } else {
    turn.ids.forEach((id, contentIndex) => {
      const call: PiToolCall = { type: 'toolCall', id, name: 'read', arguments: {} };
      partial.content.push(call);
      stream.push({ type: 'toolcall_start', contentIndex, partial });
      stream.push({ type: 'toolcall_delta', contentIndex, delta: JSON.stringify(LOOP_ARGUMENTS), partial });
      call.arguments = LOOP_ARGUMENTS;
      stream.push({ type: 'toolcall_end', contentIndex, toolCall: call, partial });
    });
    partial.stopReason = 'toolUse';
  }
  stream.push({ type: 'done', reason: partial.stopReason, message: partial });
  stream.end(partial);
  return stream;
}
