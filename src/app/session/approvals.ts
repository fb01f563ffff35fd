// The person's say over one session's tool calls: the policy decides each call, and asks the person about those it
// will not decide alone; a question waits for its answer with its call's card marked as awaiting it.
import type { Workspace } from '../../runtime/workspace/workspace';
import { ApprovalQueue, type PendingApproval } from '../policy/approval-queue.svelte';
import { ToolPolicy, type ApprovalAnswer, type ApprovalQuestion, type McpToolTraits, type ToolPolicyOptions } from '../policy/policy';
import type { Settings } from '../settings/settings';
import type { ToolCardMap } from './tool-cards/tool-card-map.svelte';

export class SessionApprovals {
  readonly policy: ToolPolicy;
  private readonly questions = new ApprovalQueue();

  /** `getSettings` is read on every tool call, so a settings change applies to the next one. */
  constructor(
    workspace: Workspace,
    getSettings: () => Settings,
    private readonly cards: ToolCardMap,
    mcpToolOf?: (name: string) => McpToolTraits | undefined,
    callTraitsOf?: ToolPolicyOptions['callTraitsOf'],
  ) {
    this.policy = new ToolPolicy({ workdir: workspace, getSettings, ask: (question, signal) => this.ask(question, signal), mcpToolOf, callTraitsOf });
  }

  /** Questions about tool calls waiting for the person's answer. */
  get pending(): PendingApproval[] {
    return this.questions.pending;
  }

  answer(questionId: string, answer: ApprovalAnswer): void {
    this.questions.answer(questionId, answer);
  }

  private ask(question: ApprovalQuestion, signal?: AbortSignal): Promise<ApprovalAnswer> {
    const card = this.cards.cardFor(question.toolCallId, question.toolName);
    card.awaitingApproval = true;
    return this.questions.ask(question, signal, () => (card.awaitingApproval = false));
  }
}
