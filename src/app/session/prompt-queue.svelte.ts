// The person's prompts on their way to the loop: those sent that the loop has not taken yet (shown as sent), and
// those typed while the agent runs, queued and delivered after the current tool batch. A prompt leaves both lists
// when the loop completes it, as it joins the transcript.
import { messageText } from '../../ai/messages';
import type { ImageContent, Message, UserMessage } from '../../ai/types';

/** The person's prompt as a message: the text alone, or the text (when there is any) followed by the images. */
export function promptMessage(text: string, images: ImageContent[]): UserMessage {
  const content: UserMessage['content'] = images.length === 0 ? text : [...(text ? [{ type: 'text' as const, text }] : []), ...images];
  return { role: 'user', content, timestamp: Date.now() };
}

export class PromptQueue {
  /** Prompts sent that the loop has not taken yet (it starts once the system prompt is built). */
  pending = $state.raw<UserMessage[]>([]);
  /** Messages typed while the agent runs, delivered after the current tool batch. */
  queued = $state.raw<UserMessage[]>([]);

  /** `prompts` were handed to a run starting now. */
  sent(prompts: UserMessage[]): void {
    this.pending = [...this.pending, ...prompts];
  }

  queue(message: UserMessage): void {
    this.queued = [...this.queued, message];
  }

  /** Removes a queued message before it is delivered. */
  unqueue(index: number): void {
    this.queued = this.queued.filter((_, i) => i !== index);
  }

  /** The messages queued so far, which are then no longer queued. */
  takeQueued(): UserMessage[] {
    const taken = this.queued;
    this.queued = [];
    return taken;
  }

  /** The loop completed `message`: a prompt it took is neither pending nor queued any more. */
  completed(message: Message): void {
    if (message.role !== 'user') return;
    this.pending = this.pending.filter((p) => p !== message);
    this.queued = this.queued.filter((q) => q !== message);
  }

  /** Those of `prompts` the loop never took (it could not start), which are then no longer pending. */
  takeUntaken(prompts: UserMessage[]): UserMessage[] {
    const left = prompts.filter((p) => this.pending.includes(p));
    if (left.length > 0) this.pending = this.pending.filter((p) => !left.includes(p));
    return left;
  }

  /** The composer's `draft` with the queued messages' texts put back before it; they are then no longer queued. */
  returnToDraft(draft: string): string {
    const texts = this.takeQueued().map((m) => messageText(m, { separator: '' }));
    return [...texts, draft].filter((t) => t.trim() !== '').join('\n\n');
  }
}
