// One write-back as the person reviews it: every changed file with its own checkbox, a deletion that needs its own
// confirmation, and for a file changed on disk too the choice of the disk's version, Conch's, or the editor's
// three-way merge of the two. Confirm carries out what was chosen and tells what was written and what failed.
import { errorText } from '../../error-text';
import type { ConflictChoice, WriteBackItem, WriteBackPlan, WriteBackResult } from '../../../remote';
import { decodeText, mergeOnto } from '../../workspace/file-editing';

export type RowChoice = 'keep-disk' | 'take-conch' | 'merge';

export type WriteBackRow = {
  path: string;
  status: WriteBackItem['status'];
  /** What Conch did to a conflicting file (added, modified, deleted); the status itself for the others. */
  change: 'added' | 'modified' | 'deleted';
  selected: boolean;
  /** A deletion is carried out only once this is ticked too. */
  deletionConfirmed: boolean;
  choice: RowChoice | null;
  /** Why a merge could not be made (the same lines changed, a binary file), written for the person. */
  problem: string;
};

export type WriteBackPhase = 'reviewing' | 'writing' | 'done';

export class WriteBackReview {
  rows = $state<WriteBackRow[]>([]);
  phase = $state<WriteBackPhase>('reviewing');
  /** What was written, removed, kept and failed, one line each, once confirmed. */
  outcome = $state<string[]>([]);
  /** Milliseconds the writing took (the figure the write-back's target is measured by). */
  elapsedMs = $state(0);
  private readonly merged = new Map<string, Uint8Array>();

  constructor(
    private readonly plan: WriteBackPlan,
    /** Told what was done, with the bytes now on disk of each file written or kept. */
    private readonly onWritten: (result: WriteBackResult, contents: Uint8Array[]) => Promise<void>,
  ) {
    this.rows = plan.items.map((item) => ({
      path: item.path,
      status: item.status,
      change: item.status === 'conflict' ? item.change : item.status,
      selected: true,
      deletionConfirmed: false,
      choice: null,
      problem: '',
    }));
  }

  get empty(): boolean {
    return this.rows.length === 0;
  }

  /** Whether Confirm would do anything: a ticked file that is not waiting for a choice. */
  get ready(): boolean {
    return this.phase === 'reviewing' && this.rows.some((row) => row.selected && (row.status !== 'conflict' || row.choice !== null));
  }

  /** Chooses how the conflict at `path` is settled; a merge is made now, so a failed one says so before writing. */
  async choose(path: string, choice: RowChoice): Promise<void> {
    const row = this.rows.find((r) => r.path === path);
    const item = this.plan.items.find((i) => i.path === path);
    if (!row || !item || item.status !== 'conflict') return;
    row.problem = '';
    if (choice !== 'merge') {
      row.choice = choice;
      return;
    }
    const [disk, conch, base] = [item.disk, item.conch, item.base].map((bytes) => (bytes ? decodeText(bytes) : ''));
    if (disk === null || conch === null || base === null || item.disk === null || item.conch === null) {
      row.problem = 'Only two text versions of a file can be merged: keep the disk\'s or take Conch\'s.';
      return;
    }
    const merged = await mergeOnto(disk, base, conch);
    if (merged === null) {
      row.problem = 'Conch and the disk changed the same lines, so they cannot be merged: keep the disk\'s version or take Conch\'s.';
      return;
    }
    this.merged.set(path, new TextEncoder().encode(merged));
    row.choice = 'merge';
  }

  /** Writes the ticked files as chosen; the written state becomes the folder's new baseline. */
  async confirm(): Promise<void> {
    if (!this.ready) return;
    this.phase = 'writing';
    const { applyWriteBack } = await import('../../../remote');
    const conflicts = new Map<string, ConflictChoice>();
    for (const row of this.rows) {
      if (row.status !== 'conflict' || !row.choice) continue;
      conflicts.set(row.path, row.choice === 'merge' ? { merged: this.merged.get(row.path)! } : row.choice);
    }
    const started = performance.now();
    try {
      const result = await applyWriteBack(this.plan, {
        selected: new Set(this.rows.filter((row) => row.selected).map((row) => row.path)),
        confirmedDeletions: new Set(this.rows.filter((row) => row.deletionConfirmed).map((row) => row.path)),
        conflicts,
      });
      this.elapsedMs = performance.now() - started;
      await this.onWritten(result, this.contentsOf(result));
      this.outcome = outcomeLines(result);
    } catch (error) {
      this.outcome = [`The write-back stopped: ${errorText(error)} Write back again to see what is left.`];
    }
    this.phase = 'done';
  }

  private contentsOf(result: WriteBackResult): Uint8Array[] {
    const items = new Map(this.plan.items.map((item) => [item.path, item]));
    const written = result.written.map((path) => this.merged.get(path) ?? items.get(path)?.conch);
    const kept = result.keptDisk.map((path) => { const item = items.get(path); return item?.status === 'conflict' ? item.disk : null; });
    return [...written, ...kept].filter((data): data is Uint8Array => data instanceof Uint8Array);
  }
}

/** What a write-back did, one line per kind of outcome and one per failure. */
export function outcomeLines(result: WriteBackResult): string[] {
  const count = (n: number) => `${n} ${n === 1 ? 'file' : 'files'}`;
  const named = (paths: string[]) => (paths.length <= 5 ? paths.join(', ') : `${paths.slice(0, 5).join(', ')} and ${paths.length - 5} more`);
  const lines: string[] = [];
  if (result.written.length) lines.push(`Wrote ${count(result.written.length)}: ${named(result.written)}.`);
  if (result.removed.length) lines.push(`Deleted ${count(result.removed.length)} on disk: ${named(result.removed)}.`);
  if (result.keptDisk.length) lines.push(`Kept the disk's version of ${named(result.keptDisk)} (the workspace now has it too).`);
  if (result.leftAlone.length) lines.push(`Left alone (deletion not confirmed, or no choice made): ${named(result.leftAlone)}.`);
  for (const failure of result.failed) lines.push(failure.message);
  if (lines.length === 0) lines.push('Nothing was written.');
  return lines;
}
