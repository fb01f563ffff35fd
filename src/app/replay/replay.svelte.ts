// One session's replay: the steps, the current one, playing, and the workspace at that step. Read-only: it reads the
// transcript the open session already holds and the stored checkpoint objects, and never writes the workspace, the
// sandbox or the session; "Continue from here" hands over to the library's fork, which makes a new session.
// Moving is synchronous (the timeline and conversation follow at once); the workspace at the new step arrives
// after, and a step left before its workspace arrived never shows it.
import type { CompactionEntry, Message, TaskEntry } from '../../ai/types';
import { DEFAULT_WORKDIR } from '../../runtime/paths';
import type { SessionStore } from '../../store';
import { stepDiffLines } from './step-diff';
import { indexSteps, nextUserStep, type ReplayStep } from './steps';
import { storedCheckpoints } from './stored-checkpoints';
import { ReplayWorkspace, type FolderEntry, type StepWorkspace } from './workspace-at-step';

export type { ReplayStep, StepWorkspace, FolderEntry };
export type ReplaySpeed = 1 | 2 | 4;
export type FileContent = string | { binary: number } | null;

export type ReplaySource = {
  sessionId: string;
  messages: readonly Message[];
  compactions: readonly CompactionEntry[];
  /** Its subagent tasks as stored: each shows as a group of steps at the call that started it. */
  tasks?: readonly TaskEntry[];
  checkpoints: readonly number[];
  store: Pick<SessionStore, 'objects' | 'loadStoredSnapshot'>;
  /** Forks the session at user message `seq` and opens the fork live (the library's fork-at-message). */
  fork(seq: number): Promise<void>;
};

/** How long a step stays on screen while playing at 1×. */
const PLAY_STEP_MS = 1200;

/** The replay of one session; the replay view renders it and calls its methods. */
export class ReplayState {
  readonly steps: ReplayStep[];
  /** The current step, 0-based (the view and the address show it 1-based). */
  index = $state(0);
  playing = $state(false);
  speed = $state<ReplaySpeed>(1);
  /** The workspace at the current step, once read (the previous step's until then). */
  workspace = $state.raw<StepWorkspace | null>(null);
  /** The step `workspace` is of (-1 before the first is read), and the step `content` was read at. */
  workspaceStep = $state(-1);
  contentStep = $state(-1);
  /** Folders open in the file tree; they stay open from step to step. */
  expanded = $state.raw<ReadonlySet<string>>(new Set());
  selected = $state<string | null>(null);
  content = $state.raw<FileContent>(null);
  error = $state<string | null>(null);
  continuing = $state(false);
  private readonly files: ReplayWorkspace;
  private readonly source: ReplaySource;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private shown = 0;

  constructor(source: ReplaySource, startStep = 1) {
    this.source = source;
    this.steps = indexSteps(source.messages, source.compactions, source.tasks);
    const { objects, checkpoints } = storedCheckpoints(source.store, source.sessionId, source.checkpoints);
    this.files = new ReplayWorkspace(objects, this.steps, source.messages, checkpoints, DEFAULT_WORKDIR);
    this.go(startStep - 1);
  }

  get step(): ReplayStep | undefined {
    return this.steps[this.index];
  }

  /** The last message the conversation shows at the current step. */
  get shownThrough(): number {
    return this.step?.seq ?? -1;
  }

  /** The current step's change as diff lines (writes and edits), or null. */
  get diff(): ReturnType<typeof stepDiffLines> | null {
    const change = this.workspace?.change;
    return change && change.kind !== 'bash' ? stepDiffLines(change.path, change.before, change.after) : null;
  }

  /** Moves to step `index` (clamped). */
  go(index: number): void {
    if (this.steps.length === 0) return;
    this.index = Math.max(0, Math.min(this.steps.length - 1, Math.trunc(index)));
    void this.show(this.index);
  }

  next(): void {
    if (this.index >= this.steps.length - 1) this.pause();
    else this.go(this.index + 1);
  }

  prev(): void {
    this.go(this.index - 1);
  }

  /** Moves to the next user message (the end when there is none). */
  nextUser(): void {
    const found = nextUserStep(this.steps, this.index);
    this.go(found < 0 ? this.steps.length - 1 : found);
  }

  togglePlay(): void {
    if (this.playing) this.pause();
    else this.play();
  }

  play(): void {
    if (this.index >= this.steps.length - 1) this.go(0);
    this.playing = true;
    this.schedule();
  }

  pause(): void {
    this.playing = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  setSpeed(speed: ReplaySpeed): void {
    this.speed = speed;
    if (this.playing) this.schedule();
  }

  /** The entries of `folder` at the current step (empty before its workspace is read). */
  list(folder: string): Promise<FolderEntry[]> {
    const workspace = this.workspace;
    return workspace ? this.files.list(workspace, folder) : Promise.resolve([]);
  }

  toggleFolder(path: string): void {
    const next = new Set(this.expanded);
    if (!next.delete(path)) next.add(path);
    this.expanded = next;
  }

  /** Shows file `path` as it is at the current step. */
  select(path: string): void {
    this.selected = path;
    void this.readSelected();
  }

  /** Where "Continue from here" forks: this user message, else the next one (null in the last turn). */
  get forkSeq(): number | null {
    const step = this.step;
    if (!step) return null;
    if (step.kind === 'user') return step.seq;
    const found = nextUserStep(this.steps, this.index);
    return found < 0 ? null : this.steps[found].seq;
  }

  /** Forks the session at this step and opens the fork live. */
  async continueHere(): Promise<void> {
    const seq = this.forkSeq;
    if (seq === null) return;
    this.pause();
    this.continuing = true;
    try {
      await this.source.fork(seq);
    } finally {
      this.continuing = false;
    }
  }

  dispose(): void {
    this.pause();
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      if (!this.playing) return;
      this.next();
      if (this.playing) this.schedule();
    }, PLAY_STEP_MS / this.speed);
  }

  private async show(index: number): Promise<void> {
    const ticket = ++this.shown;
    try {
      const workspace = await this.files.at(index);
      if (ticket !== this.shown) return;
      this.error = null;
      this.workspace = workspace;
      this.workspaceStep = index;
      const change = workspace.change;
      if (change && change.kind !== 'bash') {
        this.selected = change.path;
        this.expandTo(change.path);
      }
      await this.readSelected();
      if (ticket === this.shown) this.prefetchAround(index);
    } catch (error) {
      if (ticket === this.shown) this.error = `The workspace at step ${index + 1} could not be read: ${error instanceof Error ? error.message : String(error)}`;
    }
  }

  /** The next step's and the next user message's workspaces, read while the person looks at this one. */
  private prefetchAround(index: number): void {
    const ahead = [index + 1, nextUserStep(this.steps, index)].filter((i) => i > index && i < this.steps.length);
    for (const at of new Set(ahead)) void this.files.prefetch(at, this.selected).catch(() => undefined);
  }

  private async readSelected(): Promise<void> {
    const workspace = this.workspace;
    const step = this.workspaceStep;
    const path = this.selected;
    if (!workspace || path === null) {
      this.content = null;
      return;
    }
    const content = await this.files.read(workspace, path);
    if (this.workspace === workspace && this.selected === path) {
      this.content = content;
      this.contentStep = step;
    }
  }

  private expandTo(path: string): void {
    const parts = path.split('/').slice(0, -1);
    if (parts.length === 0) return;
    const next = new Set(this.expanded);
    parts.forEach((_, i) => next.add(parts.slice(0, i + 1).join('/')));
    this.expanded = next;
  }
}
