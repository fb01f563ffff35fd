// One run of the agent loop for a session, wired to what the session gives it: the context guard before each model
// call, the approval policy around each tool call (its verdict shown on the call's card), and the messages the person
// queued, delivered after each tool batch. The loop's events go to the session's AgentActivity.
import type { AgentContext, AgentLoopConfig } from '../../agent/types';
import type { Message, UserMessage } from '../../ai/types';
import type { AgentActivity } from './agent-activity.svelte';
import type { ToolPolicy } from '../policy/policy';

export type AgentRun = {
  prompts: UserMessage[];
  context: AgentContext;
  /** The model, the provider call and its options, and the compaction guard's beforeModelCall. */
  config: Pick<AgentLoopConfig, 'model' | 'streamFn' | 'streamOptions' | 'beforeModelCall'>;
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

/** Runs the loop to its end. */
export async function runAgent(run: AgentRun): Promise<void> {
  const runAgentLoop = await loadAgentLoop();
  const { policy, activity } = run;
  const stream = runAgentLoop(
    run.prompts,
    run.context,
    {
      ...run.config,
      beforeToolCall: async (call, signal) => {
        const result = await policy.beforeToolCall(call, signal);
        activity.decided(call, result, signal);
        return result;
      },
      afterToolCall: policy.afterToolCall,
      getSteeringMessages: async () => run.takeQueued(),
    },
    run.signal,
  );
  for await (const event of stream) activity.handle(event);
}
