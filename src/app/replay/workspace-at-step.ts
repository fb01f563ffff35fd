// The workspace as it was at a replay step, rebuilt in memory from what the session stored, never from the live
// sandbox: the checkpoint of the step's turn (the exact tree when that user message was sent), with each recorded
// write and edit of the turn up to the step applied on top, as an overlay of changed files over that tree. Nothing
// is hashed or copied: folders are read from the checkpoint's trees as the file tree opens them.
// A step whose tree cannot be known exactly is "approximate": a bash command ran in the turn before it (its side
// effects are not recorded), a call's change could not be applied, or the turn has no checkpoint of its own.
// A worker subagent's changes reached the workspace when it ended (merged) or as it made them (no fork): its own
// writes and edits apply at its task's step, replayed from its transcript; one applied later, by hand, is not known
// to the step and makes it approximate.
import type { Message, TaskEntry, ToolCall } from '../../ai/types';
import type { ObjectId } from '../../runtime/object-id';
import { prepareEditArguments } from '../../tools/edit/arguments';
import { EMPTY_SNAPSHOT_TREE, type Tree } from '../../store';
import type { ReplayStep } from './steps';

/** What replay reads snapshots through (the store's objects, or objects in memory). */
export interface ReplayObjects {
  tree(id: ObjectId): Promise<Tree>;
  blobs(ids: ObjectId[]): Promise<Map<ObjectId, Uint8Array>>;
}

/** Where the checkpoints are: the seqs that have one, and the root of each (read on demand). */
export interface ReplayCheckpoints {
  seqs: readonly number[];
  root(seq: number): Promise<ObjectId | undefined>;
  /** The tree before the first checkpoint (the imported baseline), if any. */
  baseline?(): Promise<ObjectId | undefined>;
}

/** A step's own change: a file a write or edit changed (its text before and after), or a command that ran. */
export type StepChange =
  | { kind: 'write' | 'edit'; path: string; before: string | null; after: string }
  | { kind: 'bash'; command: string };

/** The workspace at one step: a tree with changed files over it. */
export type StepWorkspace = {
  base: ObjectId;
  overlay: ReadonlyMap<string, string>;
  approximate: boolean;
  change: StepChange | null;
};

export type FolderEntry = { name: string; path: string; kind: 'file' | 'dir' };

/** Tools that change nothing in the workspace; any other tool but write and edit makes the step approximate. */
const READ_ONLY_TOOLS = new Set(['read', 'grep', 'find', 'ls', 'todo', 'web_search', 'web_fetch']);
const CACHED_STEPS = 16;
const decoder = new TextDecoder();

/** The workspace at each step of one session's replay. */
export class ReplayWorkspace {
  private readonly cache = new Map<number, Promise<StepWorkspace>>();
  private readonly roots = new Map<number, Promise<ObjectId | undefined>>();
  /** File texts by blob id, the last few read (a file open in the viewer is read again at each step). */
  private readonly texts = new Map<ObjectId, Promise<string | { binary: number }>>();

  constructor(
    private readonly objects: ReplayObjects,
    private readonly steps: readonly ReplayStep[],
    private readonly messages: readonly Message[],
    private readonly checkpoints: ReplayCheckpoints,
    private readonly workdir = '/home/project',
  ) {}

  /** The workspace at step `index` (the last few are kept). */
  at(index: number): Promise<StepWorkspace> {
    let found = this.cache.get(index);
    if (found) {
      this.cache.delete(index);
      this.cache.set(index, found);
      return found;
    }
    found = this.compute(index);
    found.catch(() => this.cache.delete(index));
    this.cache.set(index, found);
    if (this.cache.size > CACHED_STEPS) this.cache.delete(this.cache.keys().next().value as number);
    return found;
  }

  /** The entries of `folder` ('' for the top) at `workspace`: folders first, then files, by name. */
  async list(workspace: StepWorkspace, folder: string): Promise<FolderEntry[]> {
    const entries = new Map<string, FolderEntry>();
    const tree = await this.folderTree(workspace.base, folder);
    const prefix = folder ? `${folder}/` : '';
    for (const entry of tree?.entries ?? []) entries.set(entry.name, { name: entry.name, path: prefix + entry.name, kind: entry.kind });
    for (const path of workspace.overlay.keys()) {
      if (!path.startsWith(prefix)) continue;
      const [name, ...deeper] = path.slice(prefix.length).split('/');
      if (!entries.has(name)) entries.set(name, { name, path: prefix + name, kind: deeper.length > 0 ? 'dir' : 'file' });
    }
    return [...entries.values()].sort((a, b) => (a.kind === b.kind ? (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) : a.kind === 'dir' ? -1 : 1));
  }

  /** The text of file `path` at `workspace`; null when there is no such file, 'binary' for one that is not text. */
  async read(workspace: StepWorkspace, path: string): Promise<string | null | { binary: number }> {
    const changed = workspace.overlay.get(path);
    if (changed !== undefined) return changed;
    const cut = path.lastIndexOf('/');
    const tree = await this.folderTree(workspace.base, cut < 0 ? '' : path.slice(0, cut));
    const entry = tree?.entries.find((e) => e.name === path.slice(cut + 1) && e.kind === 'file');
    if (!entry) return null;
    return this.text(entry.id);
  }

  /** Reads step `index`'s workspace and file `path` there ahead of time, so moving there finds them ready. */
  async prefetch(index: number, path: string | null): Promise<void> {
    if (!this.steps[index]) return;
    const workspace = await this.at(index);
    if (path !== null) await this.read(workspace, path);
  }

  private text(id: ObjectId): Promise<string | { binary: number }> {
    let found = this.texts.get(id);
    if (!found) {
      found = this.objects.blobs([id]).then((blobs) => {
        const bytes = blobs.get(id)!;
        return bytes.subarray(0, 8000).includes(0) ? { binary: bytes.length } : decoder.decode(bytes);
      });
      found.catch(() => this.texts.delete(id));
      this.texts.set(id, found);
      if (this.texts.size > CACHED_STEPS) this.texts.delete(this.texts.keys().next().value as ObjectId);
    }
    return found;
  }

  private async compute(index: number): Promise<StepWorkspace> {
    const step = this.steps[index];
    if (!step) throw new Error(`This session has no step ${index + 1}.`);
    const baseSeq = this.checkpointAtOrBefore(step.turn);
    const base = baseSeq === undefined ? await this.baseline() : await this.root(baseSeq);
    let approximate = baseSeq !== step.turn && !(baseSeq === undefined && step.turn < 0);
    // The steps since the base was taken, in order.
    let first = index;
    while (first > 0 && this.steps[first - 1].seq >= (baseSeq ?? -1)) first--;
    const overlay = new Map<string, string>();
    const workspace = { base, overlay, approximate, change: null as StepChange | null };
    for (let i = first; i <= index; i++) {
      const at = this.steps[i];
      if (at.kind !== 'tool' && at.kind !== 'subagent') continue;
      const applied = at.kind === 'tool' ? await this.apply(workspace, at.call, this.resultAt(this.messages, at.resultSeq)) : await this.applyTask(workspace, at.task);
      if (!applied.exact) approximate = true;
      if (i === index) workspace.change = applied.change;
    }
    workspace.approximate = approximate;
    return workspace;
  }

  /** Applies a subagent task's recorded changes (its writes and edits, in order); the change shown is its last. */
  private async applyTask(workspace: StepWorkspace & { overlay: Map<string, string> }, task: TaskEntry): Promise<{ exact: boolean; change: StepChange | null }> {
    if (task.outcome === 'applied') return { exact: false, change: null };
    if (task.outcome !== 'merged' && task.outcome !== 'live') return { exact: true, change: null }; // nothing of it reached the workspace
    const results = new Map<string, Message>();
    for (const message of task.messages) if (message.role === 'toolResult') results.set(message.toolCallId, message);
    let exact = true;
    let change: StepChange | null = null;
    for (const message of task.messages) {
      if (message.role !== 'assistant') continue;
      for (const block of message.content) {
        if (block.type !== 'toolCall') continue;
        const applied = await this.apply(workspace, block, results.get(block.id));
        exact &&= applied.exact;
        if (applied.change && applied.change.kind !== 'bash') change = applied.change;
      }
    }
    return { exact, change };
  }

  private resultAt(messages: readonly Message[], seq: number | undefined): Message | undefined {
    return seq === undefined ? undefined : messages[seq];
  }

  /** Applies one tool call's recorded change (`result`: its result, if one came) to `workspace`'s overlay. */
  private async apply(workspace: StepWorkspace & { overlay: Map<string, string> }, call: ToolCall, result: Message | undefined): Promise<{ exact: boolean; change: StepChange | null }> {
    const failed = !result || (result.role === 'toolResult' && result.isError);
    if (call.name === 'bash') return { exact: false, change: { kind: 'bash', command: String(call.arguments.command ?? '') } };
    if (call.name !== 'write' && call.name !== 'edit') return { exact: READ_ONLY_TOOLS.has(call.name), change: null };
    if (failed) return { exact: !!result, change: null }; // a failed write or edit changed nothing; one never run is unknown
    const path = workspacePath(String(call.arguments.path ?? ''), this.workdir);
    if (path === null) return { exact: false, change: null };
    const found = await this.read(workspace, path);
    const before = typeof found === 'string' ? found : null;
    if (call.name === 'write') {
      const after = String(call.arguments.content ?? '');
      workspace.overlay.set(path, after);
      return { exact: true, change: { kind: 'write', path, before, after } };
    }
    const after = before === null ? null : applyEdits(before, prepareEditArguments(call.arguments));
    if (after === null) return { exact: false, change: null };
    workspace.overlay.set(path, after);
    return { exact: true, change: { kind: 'edit', path, before, after } };
  }

  private checkpointAtOrBefore(seq: number): number | undefined {
    let found: number | undefined;
    for (const at of this.checkpoints.seqs) if (at <= seq) found = at;
    return found;
  }

  private root(seq: number): Promise<ObjectId> {
    let found = this.roots.get(seq);
    if (!found) this.roots.set(seq, (found = this.checkpoints.root(seq)));
    return found.then((root) => root ?? EMPTY_SNAPSHOT_TREE);
  }

  private async baseline(): Promise<ObjectId> {
    return (await this.checkpoints.baseline?.()) ?? EMPTY_SNAPSHOT_TREE;
  }

  private async folderTree(root: ObjectId, folder: string): Promise<Tree | undefined> {
    let tree = await this.objects.tree(root);
    for (const name of folder ? folder.split('/') : []) {
      const entry = tree.entries.find((e) => e.name === name && e.kind === 'dir');
      if (!entry) return undefined;
      tree = await this.objects.tree(entry.id);
    }
    return tree;
  }
}

/** A path a tool was given, relative to the workspace ("src/a.ts"), or null for one outside it. */
export function workspacePath(path: string, workdir: string): string | null {
  let rest = path;
  if (rest.startsWith('/')) {
    if (!rest.startsWith(`${workdir}/`)) return null;
    rest = rest.slice(workdir.length + 1);
  }
  const parts: string[] = [];
  for (const part of rest.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(part);
  }
  return parts.length > 0 ? parts.join('/') : null;
}

/** `text` with an edit call's replacements made in order, or null when one of them does not match. */
export function applyEdits(text: string, args: unknown): string | null {
  const edits = (args as { edits?: unknown }).edits;
  if (!Array.isArray(edits)) return null;
  let out = text;
  for (const edit of edits as { oldText?: unknown; newText?: unknown }[]) {
    if (typeof edit?.oldText !== 'string' || typeof edit.newText !== 'string' || edit.oldText === '') return null;
    const at = out.indexOf(edit.oldText);
    if (at < 0) return null;
    out = out.slice(0, at) + edit.newText + out.slice(at + edit.oldText.length);
  }
  return out;
}
