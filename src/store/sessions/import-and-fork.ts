// The session store's two ways to a session with history: importing one from a seed (a shared session file), and
// forking one at a user message (its entries, compactions, subagent tasks and workspace up to that point).
import type { CompactionEntry, Message, Usage, UserMessage } from '../../ai/types';
import { requestResult } from '../db';
import { putObjects } from '../objects/object-store';
import { baselineKey, checkpointKey, latestKey, treeValue } from '../objects/snapshot-refs';
import type { ForkResult, SessionRecord, SessionStore } from '../types';
import { encodeEntry, lightMessageOf } from './entry-codec';
import { accountTaskUsage } from './task-store';
import { compactionKey, entryKey, messageRange, prefixRange, taskKey, taskPrefix } from '../keys';
import { accountFor, accountUsage, zeroTokens } from './record';
import { loadSession, readSession, type StoreContext } from './store-context';

export type ImportAndFork = Pick<SessionStore, 'importSession' | 'forkSession'>;

/** The import and fork methods of the session store over `context`. */
export function createImportAndFork({ db, objects, notify }: StoreContext): ImportAndFork {
  return {
    async importSession(seed) {
      const now = Date.now();
      const id = crypto.randomUUID();
      let session: SessionRecord = {
        id,
        title: seed.title,
        createdAt: seed.createdAt ?? now,
        updatedAt: now,
        model: seed.model,
        provider: seed.provider,
        messageCount: 0,
        cost: 0,
        tokens: zeroTokens(),
        checkpoints: [...((seed.trees ? seed.trees.checkpoints : seed.checkpoints)?.keys() ?? [])].sort((a, b) => a - b),
        baselineId: (seed.trees ? seed.trees.baseline : seed.baseline) ? id : undefined,
        importedAt: now,
        importedFrom: seed.importedFrom,
      };
      await db.transact(['sessions', 'entries', 'snapshots', 'trees', 'blobs'], 'readwrite', 'the imported session', async (s) => {
        for (const [seq, message] of seed.messages.entries()) {
          s.entries.put(seed.storedEntries?.[seq] ?? encodeEntry(message), entryKey(id, seq));
          session = accountFor(session, message, seq);
        }
        for (const [n, compaction] of (seed.compactions ?? []).entries()) {
          s.entries.put(compaction, compactionKey(id, n));
          session = accountUsage(session, compaction.usage);
        }
        for (const task of seed.tasks ?? []) {
          s.entries.put(encodeEntry(task), taskKey(id, task.toolCallId));
          session = accountTaskUsage(session, undefined, task.usage);
        }
        if (seed.trees) {
          await putObjects(s, seed.trees.objects, objects.packs);
          if (seed.trees.latest) s.snapshots.put(treeValue(seed.trees.latest), latestKey(id));
          if (seed.trees.baseline) s.snapshots.put(treeValue(seed.trees.baseline), baselineKey(id));
          for (const [seq, root] of seed.trees.checkpoints) s.snapshots.put(treeValue(root), checkpointKey(id, seq));
        } else {
          if (seed.latest) s.snapshots.put(seed.latest, latestKey(id));
          if (seed.baseline) s.snapshots.put(seed.baseline, baselineKey(id));
          for (const [seq, zip] of seed.checkpoints ?? []) s.snapshots.put(zip, checkpointKey(id, seq));
        }
        s.sessions.put({ ...session, model: seed.model || session.model, provider: seed.provider || session.provider, updatedAt: now }, id);
      });
      notify({ type: 'created', id });
      return (await loadSession(db, id)) as SessionRecord;
    },

    async forkSession(sessionId, atSeq) {
      const result = await db.transact(['sessions', 'entries', 'snapshots'], 'readwrite', 'the fork', async (s): Promise<ForkResult> => {
        const parent = await readSession(s, sessionId);
        const values = (await requestResult(s.entries.getAll(messageRange(sessionId), atSeq + 1))) as unknown[];
        const prompt = values[atSeq];
        if (atSeq >= parent.messageCount || (prompt as Message | undefined)?.role !== 'user') {
          throw new Error(`Message ${atSeq} of this session is not a user message; a fork starts at a user message.`);
        }
        const now = Date.now();
        let fork: SessionRecord = {
          ...parent,
          id: crypto.randomUUID(),
          title: `${parent.title || 'Untitled'} (fork)`.slice(0, 200),
          createdAt: now,
          updatedAt: now,
          messageCount: 0,
          cost: 0,
          tokens: zeroTokens(),
          checkpoints: parent.checkpoints.filter((seq) => seq < atSeq),
          forkedFrom: { sessionId, seq: atSeq },
          importedAt: undefined,
          importedFrom: undefined,
          // A fork's work is its own: its first push makes its own branch and request, not a commit on the parent's.
          pushRecord: undefined,
        };
        for (const [seq, message] of values.slice(0, atSeq).entries()) {
          s.entries.put(message, entryKey(fork.id, seq));
          fork = accountFor(fork, message as Message, seq);
        }
        // Compactions made after the fork point summarise messages the fork does not have.
        const compactions = (await requestResult(s.entries.getAll(prefixRange(`${sessionId}/compaction/`)))) as CompactionEntry[];
        for (const [n, compaction] of compactions.filter((c) => c.atSeq <= atSeq).entries()) {
          s.entries.put(compaction, compactionKey(fork.id, n));
          fork = accountUsage(fork, compaction.usage);
        }
        // A task is kept with the tool call it answers.
        const kept = new Set(values.slice(0, atSeq).flatMap((m) => toolCallIdsOf(m)));
        const tasks = (await requestResult(s.entries.getAll(prefixRange(taskPrefix(sessionId))))) as unknown[];
        for (const stored of tasks) {
          const task = lightMessageOf(stored) as { toolCallId?: unknown; usage?: Usage };
          if (typeof task.toolCallId !== 'string' || !kept.has(task.toolCallId) || !task.usage) continue;
          s.entries.put(stored, taskKey(fork.id, task.toolCallId));
          fork = accountTaskUsage(fork, undefined, task.usage);
        }
        fork.updatedAt = now;
        for (const seq of fork.checkpoints) {
          const zip = await requestResult(s.snapshots.get(checkpointKey(sessionId, seq)));
          if (zip !== undefined) s.snapshots.put(zip, checkpointKey(fork.id, seq));
        }
        const atCheckpoint = await requestResult(s.snapshots.get(checkpointKey(sessionId, atSeq)));
        const baseline = parent.baselineId ? await requestResult(s.snapshots.get(`${parent.baselineId}/baseline`)) : undefined;
        const workspace = atCheckpoint ?? baseline;
        if (workspace !== undefined) s.snapshots.put(workspace, `${fork.id}/latest`);
        s.sessions.put(fork, fork.id);
        return {
          session: fork,
          prompt: prompt as UserMessage,
          workspace: atCheckpoint !== undefined ? 'checkpoint' : baseline !== undefined ? 'baseline' : 'none',
        };
      });
      notify({ type: 'created', id: result.session.id });
      return result;
    },
  };
}

/** The ids of the tool calls in a stored message (none for anything but an assistant message). */
function toolCallIdsOf(stored: unknown): string[] {
  const message = lightMessageOf(stored) as Partial<Message>;
  if (message.role !== 'assistant' || !Array.isArray(message.content)) return [];
  return message.content.flatMap((block) => (block.type === 'toolCall' ? [block.id] : []));
}
