// The state of each tool call as the transcript shows it: from the moment its arguments stream in until its result.
import type { ToolResultMessage } from '../../../ai/types';
import { resultText } from './tool-summary';

/** The one line-count rule of the tools (a final newline ends the last line), for cards that count lines. */
export { countLines } from '../../../tools/truncate';

export type ToolCardStatus = 'pending' | 'running' | 'done' | 'error' | 'blocked';

/** One tool call's card. Fields are reactive; the controller is the only writer. */
export class ToolCardState {
  status = $state<ToolCardStatus>('pending');
  args = $state.raw<unknown>({});
  /** Live output while running (the tool's latest partial result text). */
  partialOutput = $state('');
  result = $state.raw<ToolResultMessage | undefined>(undefined);
  /** Why the policy or the person blocked the call. */
  blockedReason = $state('');
  /** Set while the person is being asked about this call. */
  awaitingApproval = $state(false);

  constructor(
    readonly id: string,
    readonly toolName: string,
  ) {}

  /** The result text, for display and copying. */
  get resultText(): string {
    return resultText(this.result);
  }
}
