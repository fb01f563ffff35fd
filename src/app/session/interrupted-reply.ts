// A reply being streamed survives a reload: while it streams it is saved (throttled) to the session's draft slot; when
// the session is opened again, a reply left there joins the transcript closed as interrupted (with aborted results
// for its tool calls), and the person can Continue from it. A subagent task a reload cut off comes back the same way:
// aborted, interrupted, its partial transcript kept.
import type { AssistantMessage, Message, TaskEntry } from '../../ai/types';
import { closeInterruptedReply, closeInterruptedTask, DraftWriter, type SessionStore } from '../../store';
import type { SessionController } from './controller.svelte';
import { isInterruptedReply } from '../compaction/interrupted-marker';

export { isInterruptedReply };

/**
 * For the tab that owns session `id`, on open: a reply left in the draft slot is stored after `messages`, closed as
 * interrupted, and the slot emptied. Returns the transcript to show. A draft of a reply that was stored after all
 * (the page closed between the two writes) is only dropped.
 */
export async function recoverInterruptedReply(
  store: Pick<SessionStore, 'loadDraft' | 'clearDraft' | 'appendEntry'>,
  id: string,
  messages: Message[],
): Promise<Message[]> {
  let draft: AssistantMessage | undefined;
  try {
    draft = await store.loadDraft(id);
  } catch (error) {
    // A damaged draft must not keep the session from opening; what it held is lost either way.
    console.warn(error);
    await store.clearDraft(id);
    return messages;
  }
  if (!draft) return messages;
  const recovered = [...messages];
  if (draft.content.length > 0 && !storedAfter(messages, draft)) {
    for (const message of closeInterruptedReply(draft)) {
      await store.appendEntry(id, message);
      recovered.push(message);
    }
  }
  await store.clearDraft(id);
  return recovered;
}

/**
 * The stored tasks of session `id`, each one a reload cut off (stored queued or running) closed as interrupted; the
 * tab that owns the session (`owner`) stores the closed ones, so they stay as they were found.
 */
export async function recoverInterruptedTasks(
  store: Pick<SessionStore, 'loadTasks' | 'saveTask'>,
  id: string,
  owner: boolean,
  now = Date.now(),
): Promise<TaskEntry[]> {
  const tasks = await store.loadTasks(id);
  const recovered = tasks.map((task) => closeInterruptedTask(task, now));
  if (owner) {
    // Storing them only keeps endedAt from moving on each open: a full disk must not keep the session from opening.
    for (const [i, task] of recovered.entries()) if (task !== tasks[i]) await store.saveTask(id, task).catch((error: unknown) => console.warn(error));
  }
  return recovered;
}

/** A reply started no earlier than the draft's is its completed form (a draft's timestamp is its reply's start). */
function storedAfter(messages: Message[], draft: AssistantMessage): boolean {
  const last = messages.findLast((m) => m.role === 'assistant');
  return last !== undefined && last.timestamp >= draft.timestamp;
}

export type ReplyDraftsOptions = {
  store: Pick<SessionStore, 'saveDraft' | 'clearDraft'>;
  sessionId: string;
  /**
   * Runs the slot's emptying after every write queued before it (the session's persistence queue), so the reply is
   * stored before its draft goes and a reload in between never loses it.
   */
  afterWrites(job: () => Promise<void>): Promise<void>;
  onError?(error: unknown): void;
};

/** Saves the open session's streaming reply to its draft slot, following the controller's events. */
export class ReplyDrafts {
  private readonly writer: DraftWriter;

  constructor(options: ReplyDraftsOptions) {
    const { store, sessionId } = options;
    this.writer = new DraftWriter({
      save: (draft) => store.saveDraft(sessionId, draft),
      clear: () => options.afterWrites(() => store.clearDraft(sessionId)),
      onError: options.onError,
    });
  }

  /** Follows `session`'s streamed replies and completed messages; returns the unsubscribe. */
  attach(session: Pick<SessionController, 'subscribe' | 'watchReply'>): () => void {
    const stopWatching = session.watchReply((partial, toolCallEnded) => {
      if (toolCallEnded) this.writer.soon(partial);
      else this.writer.update(partial);
    });
    const unsubscribe = session.subscribe((event) => {
      if (event.type === 'message' && event.message.role === 'assistant') void this.writer.clear().catch(() => undefined);
    });
    return () => {
      stopWatching();
      unsubscribe();
      this.writer.dispose();
    };
  }

  /** Writes the pending draft now (the page is going away). */
  flush(): Promise<void> {
    return this.writer.flush();
  }
}
