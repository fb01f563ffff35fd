// Plan mode's way out, which only the person has: "Start" under the finished plan goes back to the mode before Plan
// mode and sends the go-ahead (AppState.startPlan).
import type { Message } from '../../ai/types';
import type { ApprovalMode } from '../settings/settings';

/** What Start sends unless the person edits it first. */
export const PLAN_START_PROMPT = 'Go ahead with the plan.';

/** Whether Start belongs under the transcript: Plan mode, nothing running, and the model's last reply finished. */
export function planReadyToStart(mode: ApprovalMode, messages: readonly Message[], running: boolean): boolean {
  const last = messages[messages.length - 1];
  return mode === 'plan' && !running && last?.role === 'assistant' && last.stopReason === 'stop';
}
