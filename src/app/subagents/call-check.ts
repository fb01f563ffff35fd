// The check around a subagent's own tool calls. The person approved the task (a worker asks once in ask mode; an
// explore task only looks), so that approval covers its calls; what stays is what blocks in every mode: a change in
// a mode that only looks, and a change to a protected path (no one watches a subagent to be asked, so it is refused).
import type { AgentTool, BeforeToolCallResult } from '../../agent/types';
import type { ToolCall } from '../../ai/types';
import { toolTraits } from '../../tools/catalog';
import { protectedPatternFor, type PolicySettings } from '../policy/policy';

export function subagentToolCheck(
  workdir: { readonly workdir: string },
  getSettings: () => PolicySettings,
): (call: { toolCall: ToolCall; args: unknown; tool: AgentTool }) => Promise<BeforeToolCallResult> {
  return async ({ tool, args }) => {
    const { approvalMode, protectedPaths } = getSettings();
    const traits = toolTraits(tool.name);
    if (!traits.readOnly && (approvalMode === 'read-only' || approvalMode === 'plan')) {
      return { block: true, reason: `Conch is in ${approvalMode === 'plan' ? 'Plan' : 'read-only'} mode: ${tool.name} is not allowed. Look with read, grep, find or ls and report what you would change.` };
    }
    const path = traits.mutating && traits.pathScoped ? pathOf(args) : undefined;
    const pattern = path === undefined ? undefined : protectedPatternFor(path, workdir.workdir, protectedPaths);
    if (path !== undefined && pattern !== undefined) {
      return {
        block: true,
        reason: `${path} is a protected path (${pattern}): a subagent may not change it. Say in your reply what should change there, and the main agent will take it up with the person.`,
      };
    }
    return undefined;
  };
}

function pathOf(args: unknown): string | undefined {
  const path = args && typeof args === 'object' ? (args as { path?: unknown }).path : undefined;
  return typeof path === 'string' ? path : undefined;
}
