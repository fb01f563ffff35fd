// What the parent's model is told of a finished task: the subagent's final reply, a worker's files and conflicts
// (with how to apply them), and its token use. Never its intermediate messages.
import type { TaskEntry } from '../../ai/types';

/** The `task` call's result text for `entry` as it ended. */
export function taskResultText(entry: TaskEntry, note?: string): string {
  const parts: string[] = [];
  if (entry.status === 'aborted') parts.push('The task was stopped before it finished.');
  if (entry.status === 'error') parts.push(`The task failed: ${entry.error ?? 'unknown error'}`);
  if (note) parts.push(note);
  parts.push(entry.result?.trim() ? entry.result.trim() : '(The subagent gave no final reply.)');
  parts.push(...filesSection(entry));
  const { input, output, cacheRead } = entry.usage;
  parts.push(`Tokens: ${input + cacheRead} in, ${output} out; ${entry.toolCalls} tool call${entry.toolCalls === 1 ? '' : 's'}.`);
  return parts.join('\n\n');
}

function filesSection(entry: TaskEntry): string[] {
  const files = entry.filesChanged ?? [];
  if (entry.status === 'conflict') {
    const hunks = (entry.conflicts ?? []).flatMap((c) =>
      c.hunks.map((h) => `- ${c.path} at line ${h.baseStart}:\n  fork point: ${quote(h.base)}\n  live now: ${quote(h.live)}\n  worker: ${quote(h.worker)}`),
    );
    return [
      `Nothing of this worker was applied: its changes to ${files.join(', ')} conflict with changes made meanwhile in the live workspace:\n${hunks.join('\n')}`,
      `Its changes are kept. To apply them, call task with agent "apply", task_id "${entry.toolCallId}" and resolution "worker" (its side of each conflicting hunk) or "live" (keep the live side there); non-conflicting changes apply either way.`,
    ];
  }
  if (files.length === 0) return entry.agent === 'explore' ? [] : ['Files changed: none.'];
  const how = entry.outcome === 'live' ? 'made in the live workspace' : entry.outcome === 'discarded' ? 'discarded' : 'merged into the live workspace';
  return [`Files changed (${how}): ${files.join(', ')}`];
}

function quote(text: string): string {
  return text === '' ? '(nothing)' : JSON.stringify(text.length > 400 ? `${text.slice(0, 400)}…` : text);
}
