// One run of the agent loop for a session, wired to what the session gives it: the context guard before each model
// call, the approval policy around each tool call (its verdict shown on the call's card), the folders' instructions
// attached to the first tool result under them, and the messages the person queued, delivered after each tool batch. The loop's events go to the session's AgentActivity.
import { errorText } from '../../ai/messages';
import type { Message, UserMessage } from '../../ai/types';
import type { AgentActivity } from './agent-activity.svelte';
import { InstructionDelivery } from '../instructions/delivery';
import type { SessionCompaction } from '../compaction/session-compaction.svelte';
import type { ToolPolicy } from '../policy/policy';
import type { RunCall } from './run-options';

export type AgentRun = {
  prompts: UserMessage[];
  /** The model, tools and provider options, ready once the system prompt is built. */
  call: Promise<RunCall>;
  /** The session's transcript as it is now. */
  transcript: () => readonly Message[];
  compaction: Pick<SessionCompaction, 'view' | 'guard'>;
  policy: Pick<ToolPolicy, 'beforeToolCall' | 'afterToolCall'>;
  activity: AgentActivity;
  /** The messages queued since the last call, which are then no longer queued. */
  takeQueued: () => Message[];
  signal: AbortSignal;
};

/** The loop (with argument validation), loaded with the first run, which keeps it out of the initial bundle. */
export async function loadAgentLoop(): Promise<typeof import('../../agent/loop').runAgentLoop> {
  return (await import('../../agent/loop')).runAgentLoop;
}

/** Runs the loop to its end; resolves what kept it from starting or stopped it, for the person, or null. */
export async function runAgent(run: AgentRun): Promise<string | null> {
  let call: RunCall;
  let runAgentLoop: Awaited<ReturnType<typeof loadAgentLoop>>;
  try {
    call = await run.call;
    runAgentLoop = await loadAgentLoop(); // a chunk that cannot be fetched (offline on a first visit) is a start failure
  } catch (error) {
    return `The agent could not start: ${errorText(error)}`;
  }
  const { policy, activity } = run;
  // Built before the prompts join the transcript: the view's next seq is theirs.
  const view = run.compaction.view(run.transcript());
  const guard = run.compaction.guard(view, { ...call, maxOutputTokens: call.streamOptions.maxTokens });
  const instructions = new InstructionDelivery(call.instructions, view.messages);
  try {
    const stream = runAgentLoop(
      run.prompts,
      { systemPrompt: call.systemPrompt, messages: view.messages, tools: call.tools },
      {
        model: call.model,
        streamFn: call.streamFn,
        streamOptions: call.streamOptions,
        beforeModelCall: async (modelCall, signal) => {
          const plan = await guard.beforeModelCall(modelCall, signal);
          if (plan?.messages) instructions.contextReplaced(plan.messages); // compacted: summarised instructions are gone
          // A server's tool list changed mid-run (tools/list_changed): its reply's calls are looked up among the new ones.
          const tools = call.currentTools();
          const systemPrompt = await call.currentSystemPrompt(); // an instruction file edited mid-run is sent as it is now
          if (systemPrompt === call.systemPrompt && tools === call.tools) return plan;
          return { ...plan, systemPrompt, tools };
        },
        beforeToolCall: async (toolCall, signal) => {
          const result = await policy.beforeToolCall(toolCall, signal);
          activity.decided(toolCall, result, signal);
          return result;
        },
        afterToolCall: async (toolCall) => {
          await policy.afterToolCall(toolCall);
          return instructions.afterToolCall(toolCall);
        },
        getSteeringMessages: async () => run.takeQueued(),
      },
      run.signal,
    );
    for await (const event of stream) activity.handle(event);
    return null;
  } catch (error) {
    return `The agent stopped unexpectedly: ${errorText(error)}`;
  } finally {
    activity.runEnded();
  }
}
