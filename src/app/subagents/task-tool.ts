// The `task` tool: hands a piece of work to a subagent with a context of its own, and returns only its conclusion.
// Its description names the agents on offer (built-ins and the definitions read at the run's start); its effects
// tell the loop how calls of one message overlap (explore reads, a worker forks, or is a command on the live
// workspace when there is no fork).
import { Type, type Static } from '@sinclair/typebox';
import type { AgentTool, AgentToolResult, ToolEffects } from '../../agent/types';
import type { AgentDefinition } from './definitions/agent-definition';

export const taskParameters = Type.Object({
  description: Type.String({ description: 'What the task is, in 3-7 words (shown on its card).' }),
  prompt: Type.String({ description: 'The full instructions: the subagent sees nothing of this conversation, so say everything it needs (for apply: why).' }),
  agent: Type.String({ description: 'explore, worker, a defined agent named in the description, or apply (a conflicted worker\'s changes).' }),
  model: Type.Optional(Type.String({ description: 'A model id for the subagent, one of those the person allowed; default: yours.' })),
  task_id: Type.Optional(Type.String({ description: 'For apply: the id of the earlier task call whose changes to apply.' })),
  resolution: Type.Optional(Type.Union([Type.Literal('worker'), Type.Literal('live')], { description: 'For apply: which side wins where hunks conflict.' })),
});

export type TaskArguments = Static<typeof taskParameters>;

/** What the tool asks of the session's subagents. */
export type TaskRunner = {
  /** The definitions read at this run's start. */
  definitions(): AgentDefinition[];
  /** Whether workers get their own fork (false: one at a time on the live workspace). */
  canFork(): boolean;
  /** The models a task may name (beside the session's). */
  models(): string[];
  /** Whether `args` changes files (a worker, a definition with writing tools, an apply). */
  writes(args: TaskArguments): boolean;
  run(toolCallId: string, args: TaskArguments, signal?: AbortSignal): Promise<AgentToolResult>;
};

export function createTaskTool(runner: TaskRunner, workdir: () => string): AgentTool<typeof taskParameters> {
  return {
    name: 'task',
    label: 'Task',
    get description() {
      return taskDescription(runner.definitions(), runner.canFork(), runner.models());
    },
    parameters: taskParameters,
    effects(args): ToolEffects {
      if (!runner.writes(args)) return { kind: 'read', paths: [workdir()] };
      return args.agent !== 'apply' && runner.canFork() ? { kind: 'fork', paths: [] } : { kind: 'exec', paths: [] };
    },
    execute: (toolCallId, args, signal) => runner.run(toolCallId, args, signal),
  };
}

/** The tool's description: what a subagent is, and the agents on offer. */
export function taskDescription(definitions: readonly AgentDefinition[], canFork: boolean, models: readonly string[]): string {
  const lines = [
    'Start a subagent on a self-contained task. It works with its own context and returns only its final reply, so the exploration it does does not fill yours. Several task calls in one message run in parallel (up to the limit the person set; the rest wait).',
    'Agents:',
    '- explore: read-only (read, grep, find, ls, todo) on the live workspace. Use it for searches and reading across many files.',
    canFork
      ? '- worker: all the coding tools, in its own copy-on-write fork of the workspace taken when it starts. When it ends, its changes are merged into the live workspace with a 3-way merge; if any hunk conflicts with changes made meanwhile, nothing of it is applied and the result lists the conflicts.'
      : '- worker: all the coding tools, directly on the live workspace (this runtime cannot fork it): workers run one at a time, and there is no merge step.',
    ...definitions.map((d) => `- ${d.name}: ${d.description.replace(/\s+/g, ' ')}`),
    '- apply: apply a conflicted worker\'s kept changes: task_id is that task\'s call id, resolution "worker" or "live" says which side wins the conflicting hunks.',
    models.length > 0 ? `model may be one of: ${models.join(', ')}.` : 'Subagents use your model.',
  ];
  return lines.join('\n');
}
