// The tool cards of one session by tool call id: made when a call first shows up (streamed arguments, an execution
// event, a restored message) and kept until the transcript is replaced.
import { SvelteMap } from 'svelte/reactivity';
import type { ToolResultMessage } from '../../../ai/types';
import { ToolCardState } from './tool-cards.svelte';

/** A reactive map of tool call id to its card; the session controller is the only writer. */
export class ToolCardMap extends SvelteMap<string, ToolCardState> {
  /** The card of call `id`, made (pending) when there is none yet. */
  cardFor(id: string, toolName: string): ToolCardState {
    let card = this.get(id);
    if (!card) {
      card = new ToolCardState(id, toolName);
      this.set(id, card);
    }
    return card;
  }

  /** Shows a call's result on its card; a blocked card stays blocked. */
  applyResult(result: ToolResultMessage): void {
    const card = this.cardFor(result.toolCallId, result.toolName);
    card.result = result;
    card.awaitingApproval = false;
    if (card.status !== 'blocked') card.status = result.isError ? 'error' : 'done';
  }

  /** After a run, a card that never got a result (a crash in the loop) must not spin forever. */
  settleLeftovers(): void {
    for (const card of this.values()) {
      if (card.status === 'pending' || card.status === 'running') {
        card.status = card.result?.isError === false ? 'done' : 'error';
        card.awaitingApproval = false;
      }
    }
  }
}
