// Runs the tool calls of one assistant message. Every call gets exactly one tool_execution_start, one
// tool_execution_end (as it finishes) and one result; results are handed back in call order.
import type { ToolCall, ToolResultMessage } from '../ai/types';
import { validateToolArguments } from '../ai/validate';
import { errorText } from '../ai/messages';
import { ABORTED, type AbortRace } from './abort';
import { BatchOrder } from './batch-order';
import {
  abortedBeforeStart,
  abortedWhileRunning,
  afterHookFailed,
  blockedByHook,
  hookFailed,
  malformedToolResult,
  textResult,
  toolNotFound,
  toolResultMessage,
  toolThrew,
} from './tool-results';
import type { AgentEvent, AgentLoopConfig, AgentTool, AgentToolResult, ToolEffects } from './types';

export interface ToolBatch {
  calls: ToolCall[];
  tools: readonly AgentTool[]; // the active ones
  config: AgentLoopConfig;
  aborts: AbortRace; // carries the run's signal
  emit(event: AgentEvent): void;
  /** Receives each result in call order, as soon as it and every earlier one are known. */
  deliver(result: ToolResultMessage): void;
}

type Finished = { result: AgentToolResult; isError: boolean };
type Prepared = { tool: AgentTool; args: unknown };

// How long a tool that was told to stop may take to report what it did (e.g. bash's output so far).
const ABORT_GRACE_MS = 250;

/**
 * Executes a batch: one by one in order when any tool in it is sequential; otherwise each call starts as soon as
 * its checks pass and every earlier call it could observe (batch-order.ts) has finished.
 */
export async function executeToolCalls(batch: ToolBatch): Promise<ToolResultMessage[]> {
  const toolsByName = new Map<string, AgentTool>();
  for (const tool of batch.tools) toolsByName.set(tool.name, tool);
  const ordered = orderedDelivery(batch);
  const sequential = batch.calls.some((call) => toolsByName.get(call.name)?.executionMode === 'sequential');

  if (sequential) {
    for (let i = 0; i < batch.calls.length; i++) {
      const call = batch.calls[i];
      startEvent(batch, call);
      const prepared = await prepare(batch, call, toolsByName.get(call.name));
      ordered.settle(i, 'result' in prepared ? prepared : await execute(batch, i, prepared, ordered, true));
    }
  } else {
    // Checks (and any question a hook asks the person) happen one call at a time, in order; each call starts
    // executing once its own checks pass and the calls it must follow are done, so independent tools overlap.
    const order = new BatchOrder<Promise<void>>();
    const running: Promise<void>[] = [];
    const started: boolean[] = [];
    for (let i = 0; i < batch.calls.length; i++) {
      const call = batch.calls[i];
      startEvent(batch, call);
      const checked = prepare(batch, call, toolsByName.get(call.name));
      const prepared = checked instanceof Promise ? await checked : checked;
      if ('result' in prepared) {
        ordered.settle(i, prepared);
        continue;
      }
      const effects = declaredEffects(prepared);
      const before = order.mustFollow(effects);
      const run = () => {
        if (batch.aborts.aborted) return Promise.resolve(failure(abortedBeforeStart(call.name)));
        started[i] = true;
        return execute(batch, i, prepared, ordered, false);
      };
      const done = (before.length === 0 ? run() : Promise.all(before).then(run)).then((finished) => ordered.settle(i, finished));
      order.add(effects, done);
      running.push(done);
    }
    // One race for the whole batch rather than one per call: once stopped, tools that ignore the signal get the grace
    // to report, then they (and the calls still waiting for them) are answered for. What they report later is dropped.
    if ((await batch.aborts.race(Promise.all(running), ABORT_GRACE_MS)) === ABORTED) {
      batch.calls.forEach((call, i) => {
        if (ordered.isSettled(i)) return;
        ordered.settle(i, failure(started[i] ? abortedWhileRunning(call.name) : abortedBeforeStart(call.name)));
      });
    }
  }
  return ordered.results;
}

/** Results for calls that must not run (cut-off or failed message): same events as executed calls. */
export function settleWithoutRunning(
  batch: ToolBatch,
  resultFor: (call: ToolCall) => AgentToolResult,
): ToolResultMessage[] {
  const ordered = orderedDelivery(batch);
  batch.calls.forEach((call, i) => {
    startEvent(batch, call);
    ordered.settle(i, { result: resultFor(call), isError: true });
  });
  return ordered.results;
}

function startEvent(batch: ToolBatch, call: ToolCall): void {
  batch.emit({ type: 'tool_execution_start', toolCallId: call.id, toolName: call.name, args: call.arguments });
}

type Delivery = ReturnType<typeof orderedDelivery>;

function orderedDelivery(batch: ToolBatch) {
  const results: ToolResultMessage[] = [];
  const settled: (ToolResultMessage | undefined)[] = new Array(batch.calls.length);
  let nextToDeliver = 0;
  return {
    results,
    isSettled(index: number): boolean {
      return settled[index] !== undefined;
    },
    /** The first answer for a call stands; a later one (a tool reporting after the batch gave up on it) is dropped. */
    settle(index: number, finished: Finished): void {
      if (settled[index] !== undefined) return;
      const call = batch.calls[index];
      const { result, isError } = finished;
      batch.emit({ type: 'tool_execution_end', toolCallId: call.id, toolName: call.name, result, isError });
      settled[index] = toolResultMessage(call, result, isError);
      while (nextToDeliver < settled.length && settled[nextToDeliver] !== undefined) {
        const message = settled[nextToDeliver++] as ToolResultMessage;
        results.push(message);
        batch.deliver(message);
      }
    },
  };
}

/**
 * Lookup, prepareArguments, validation and beforeToolCall: either arguments ready to run or a final result. Without a
 * hook there is nothing to wait for, so the answer comes at once rather than as a promise.
 */
function prepare(batch: ToolBatch, call: ToolCall, tool: AgentTool | undefined): Prepared | Finished | Promise<Prepared | Finished> {
  const checked = check(batch, call, tool);
  return 'result' in checked || !batch.config.beforeToolCall ? checked : askBeforeHook(batch, call, checked);
}

function check(batch: ToolBatch, call: ToolCall, tool: AgentTool | undefined): Prepared | Finished {
  if (batch.aborts.aborted) return failure(abortedBeforeStart(call.name));
  if (!tool) return failure(toolNotFound(call.name, batch.tools));
  let args: unknown;
  try {
    const raw = tool.prepareArguments ? tool.prepareArguments(call.arguments) : call.arguments;
    const validation = validateToolArguments(tool, raw);
    if (!validation.ok) return failure(textResult(validation.message));
    args = validation.value;
  } catch (error) {
    return failure(textResult(`Could not prepare the arguments for ${call.name}: ${errorText(error)}`));
  }
  if (batch.aborts.aborted) return failure(abortedBeforeStart(call.name));
  return { tool, args };
}

async function askBeforeHook(batch: ToolBatch, call: ToolCall, checked: Prepared): Promise<Prepared | Finished> {
  const { config, aborts } = batch;
  const signal = aborts.signal;
  // The hook sees (and may rewrite in place) this object; its args are what will run.
  const hookCall = { toolCall: call, args: checked.args, tool: checked.tool };
  try {
    const decision = await aborts.race(Promise.resolve(config.beforeToolCall!(hookCall, signal)));
    if (decision === ABORTED) return failure(abortedBeforeStart(call.name));
    if (decision && decision.block) return failure(blockedByHook(call.name, decision.reason));
  } catch (error) {
    if (signal?.aborted) return failure(abortedBeforeStart(call.name));
    return failure(hookFailed(call.name, errorText(error)));
  }
  if (signal?.aborted) return failure(abortedBeforeStart(call.name));
  return { tool: checked.tool, args: hookCall.args };
}

// A declaration that cannot be computed is taken as "may touch anything": ordering too much is only slower.
function declaredEffects(prepared: Prepared): ToolEffects | undefined {
  if (!prepared.tool.effects) return undefined;
  try {
    return prepared.tool.effects(prepared.args as never);
  } catch {
    return { kind: 'exec', paths: [] };
  }
}

/**
 * Runs one call's tool, then afterToolCall. `raced`: give up on a tool that ignores the stop after the grace (a
 * parallel batch does that for all its calls at once). Progress updates end when the call is answered.
 */
async function execute(batch: ToolBatch, index: number, prepared: Prepared, delivery: Delivery, raced: boolean): Promise<Finished> {
  const { config, aborts } = batch;
  const call = batch.calls[index];
  let finished = false;
  const onUpdate = (partialResult: AgentToolResult) => {
    if (finished || delivery.isSettled(index)) return;
    batch.emit({ type: 'tool_execution_update', toolCallId: call.id, toolName: call.name, partialResult });
  };

  let outcome: Finished;
  try {
    const work = Promise.resolve(prepared.tool.execute(call.id, prepared.args as never, aborts.signal, onUpdate));
    const result = raced ? await aborts.race(work, ABORT_GRACE_MS) : await work;
    if (result === ABORTED || aborts.aborted) {
      finished = true;
      return failure(abortedWhileRunning(call.name));
    }
    outcome = isToolResult(result) ? { result, isError: false } : failure(malformedToolResult(call.name));
  } catch (error) {
    finished = true;
    if (aborts.aborted) return failure(abortedWhileRunning(call.name, errorText(error)));
    outcome = failure(toolThrew(call.name, errorText(error)));
  }
  finished = true;
  return config.afterToolCall ? applyAfterHook(batch, call, prepared.args, outcome) : outcome;
}

async function applyAfterHook(batch: ToolBatch, call: ToolCall, args: unknown, outcome: Finished): Promise<Finished> {
  const { config, aborts } = batch;
  try {
    const hookCall = { toolCall: call, args, result: outcome.result, isError: outcome.isError };
    const override = await aborts.race(Promise.resolve(config.afterToolCall?.(hookCall)));
    if (override === ABORTED) return failure(abortedWhileRunning(call.name));
    if (!override) return outcome;
    const result: AgentToolResult = {
      content: override.content ?? outcome.result.content,
      details: 'details' in override ? override.details : outcome.result.details,
    };
    return { result, isError: override.isError ?? outcome.isError };
  } catch (error) {
    // Fail closed: the hook may exist to redact or vet the result, so an unvetted result is not passed on.
    return failure(afterHookFailed(call.name, errorText(error)));
  }
}

function failure(result: AgentToolResult): Finished {
  return { result, isError: true };
}

function isToolResult(value: unknown): value is AgentToolResult {
  return typeof value === 'object' && value !== null && Array.isArray((value as AgentToolResult).content);
}
