// A subagent task as its card reads it: the status in words (never colour alone), how long it has run, its tokens
// and cost, and what became of a worker's changes.
import { formatCost } from '../../ai/cost';
import type { TaskEntry, TaskStatus } from '../../ai/types';

export type TaskFacts = {
  status: string;
  /** "12 s", "3 min 04 s"; empty while it waits. */
  elapsed: string;
  toolCalls: string;
  tokens: string;
  cost: string;
  /** What happened to a worker's changes; empty for explore tasks and workers still running. */
  outcome: string;
};

const STATUS_WORDS: { readonly [S in TaskStatus]: string } = {
  queued: 'queued',
  running: 'running',
  done: 'done',
  error: 'failed',
  conflict: 'conflict',
  aborted: 'stopped',
};

/** The card's facts of `entry` at `now` (ms since epoch: a running task's clock ticks). */
export function taskFacts(entry: TaskEntry, now: number): TaskFacts {
  const { usage } = entry;
  const files = entry.filesChanged?.length ?? 0;
  return {
    status: entry.status === 'aborted' && entry.interrupted ? 'interrupted' : STATUS_WORDS[entry.status],
    elapsed: elapsedOf(entry, now),
    toolCalls: `${entry.toolCalls} tool call${entry.toolCalls === 1 ? '' : 's'}`,
    tokens: `${compactCount(usage.input + usage.cacheRead)} in · ${compactCount(usage.output)} out`,
    cost: formatCost(usage.cost.total, usage.cost.unknown === true),
    outcome: outcomeOf(entry, files),
  };
}

function elapsedOf(entry: TaskEntry, now: number): string {
  if (entry.startedAt === undefined) return '';
  const end = entry.endedAt ?? (entry.status === 'running' ? now : lastActivity(entry));
  return duration(Math.max(0, end - entry.startedAt));
}

/** A task cut off by a reload has no end time: its last message says how far it got. */
function lastActivity(entry: TaskEntry): number {
  return entry.messages.reduce((latest, m) => Math.max(latest, m.timestamp), entry.startedAt ?? entry.queuedAt);
}

export function duration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;
}

export function compactCount(n: number): string {
  return n >= 1_000_000 ? `${(n / 1_000_000).toFixed(1)}M` : n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n);
}

function outcomeOf(entry: TaskEntry, files: number): string {
  const count = `${files} file${files === 1 ? '' : 's'}`;
  switch (entry.outcome) {
    case 'merged':
      return files === 0 ? 'Changed no file.' : `Merged ${count} into the workspace.`;
    case 'applied':
      return `Applied ${count} to the workspace after the conflict.`;
    case 'discarded':
      return `Its changes to ${count} were discarded.`;
    case 'live':
      return files === 0 ? 'Changed no file.' : `Changed ${count} directly in the workspace (no copy on this runtime).`;
    case undefined:
      return entry.status === 'conflict' ? `Nothing applied: its changes to ${count} overlap changes made meanwhile.` : '';
    default: {
      const unreachable: never = entry.outcome;
      return unreachable;
    }
  }
}
