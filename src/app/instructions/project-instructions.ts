// A session's view of the repo's instruction files (instruction-files.ts): found by one runtime-side name search and
// read once, then kept until the workspace says something changed that could matter (an instruction file written or
// removed by the agent, the editor or the terminal; a folder moved; the files replaced as a whole). Before each use
// the runtime is asked to report its pending changes, so an edit made just now is read again before the next request.
import { unpackNames } from '../../runtime/search/name-list';
import type { Runtime } from '../../runtime/types';
import type { Workspace } from '../../runtime/workspace/workspace';
import { fitToBudget, INSTRUCTIONS_BUDGET_BYTES } from './budget';
import { chooseInstructionFiles, INSTRUCTION_FILES_GLOB, isInstructionFileName, type FoundInstructions } from './instruction-files';

/** What the system prompt carries: the root's file (cut to the budget), and the nested files by path. */
export type PromptInstructions = {
  root: { path: string; text: string } | null;
  nested: string[];
};

/** The instructions of one session's workspace, as they are now. */
export class ProjectInstructions {
  /** Every instruction file in use (workdir-relative), the root's first: what the runtime details list. */
  files: readonly string[] = [];

  private found: FoundInstructions | null = null;
  private foundOn: Runtime | null = null;
  private finding: { since: number; done: Promise<FoundInstructions> } | null = null;
  private readonly contents = new Map<string, string | null>();
  /** Counts the changes heard, so work begun before one does not keep what it read. */
  private changes = 0;
  private stopWatching: (() => void) | null = null;
  private readonly filesListeners = new Set<(files: readonly string[]) => void>();

  constructor(private readonly workspace: Workspace) {}

  /** The files that apply now, found again only after a change that could matter. */
  async current(): Promise<FoundInstructions> {
    this.stopWatching ??= this.workspace.watch((paths) => this.heard(paths));
    await this.workspace.settleChanges().catch(() => false);
    if (this.found && this.workspace.current !== this.foundOn) this.forget(); // another runtime took over
    if (this.found) return this.found;
    if (!this.finding || this.finding.since !== this.changes) {
      const finding = {
        since: this.changes,
        done: this.find().finally(() => {
          if (this.finding === finding) this.finding = null;
        }),
      };
      this.finding = finding;
    }
    return this.finding.done;
  }

  /** What the system prompt says of them; the root's text is cut to the budget. */
  async forPrompt(): Promise<PromptInstructions> {
    const found = await this.current();
    const rootText = found.root ? await this.read(found.root.path) : null;
    return {
      root: found.root && rootText ? { path: found.root.path, text: fitToBudget(rootText, INSTRUCTIONS_BUDGET_BYTES, found.root.path).text } : null,
      nested: found.nested.map((source) => source.path),
    };
  }

  /** The text of the instruction file `path` (workdir-relative), read once until it changes; null when unreadable or blank. */
  async read(path: string): Promise<string | null> {
    if (this.contents.has(path)) return this.contents.get(path) ?? null;
    const seen = this.changes;
    let text: string | null;
    try {
      text = new TextDecoder().decode(await this.workspace.readFile(this.workspace.resolve(path))).trim() || null;
    } catch {
      text = null; // unreadable: left out rather than failing the run
    }
    if (this.changes === seen) this.contents.set(path, text);
    return text;
  }

  /** The workdir-relative form of a path a tool was given; undefined outside the workspace. */
  relative(path: string): string | undefined {
    return this.workspace.relative(this.workspace.resolve(path));
  }

  /** Hears `files` each time the files in use are found again; returns the unsubscribe. */
  watchFiles(listener: (files: readonly string[]) => void): () => void {
    this.filesListeners.add(listener);
    return () => {
      this.filesListeners.delete(listener);
    };
  }

  /** Stops listening to the workspace (the session closed). */
  dispose(): void {
    this.stopWatching?.();
    this.stopWatching = null;
  }

  private async find(): Promise<FoundInstructions> {
    const seen = this.changes;
    const runtime = this.workspace.current;
    let found: FoundInstructions;
    try {
      const result = await this.workspace.search({ kind: 'names', path: this.workspace.workdir, glob: INSTRUCTION_FILES_GLOB });
      if (result.kind !== 'names') throw new Error('The runtime answered a name search with a content search.');
      const paths = unpackNames(result).flatMap((entry) => {
        const relative = entry.type === 'dir' ? undefined : this.workspace.relative(entry.path);
        return relative ? [relative] : [];
      });
      found = chooseInstructionFiles(paths);
    } catch {
      return { root: null, nested: [] }; // not kept: the next request searches again
    }
    if (this.changes === seen) {
      this.found = found;
      this.foundOn = runtime;
    }
    this.files = [...(found.root ? [found.root.path] : []), ...found.nested.map((source) => source.path)];
    for (const listener of [...this.filesListeners]) listener(this.files);
    return found;
  }

  /** A batch of changed paths (workdir-relative; '' for the whole workspace) from the watch. */
  private heard(paths: string[]): void {
    for (const path of paths) {
      if (path === '') this.forget();
      else if (isInstructionFileName(path) || this.mayHoldSome(path)) this.forgetUnder(path);
    }
  }

  /** A folder moved, copied or removed may have brought or taken instruction files; a plain file cannot. */
  private mayHoldSome(path: string): boolean {
    const known = this.found ? [this.found.root, ...this.found.nested].flatMap((source) => (source ? [source.path] : [])) : [];
    if (known.some((file) => file.startsWith(`${path}/`))) return true;
    const name = path.slice(path.lastIndexOf('/') + 1);
    return !/[^.]\.[^.]+$/.test(name); // no extension: perhaps a folder
  }

  private forgetUnder(path: string): void {
    this.changes++;
    this.found = null;
    for (const file of [...this.contents.keys()]) if (file === path || file.startsWith(`${path}/`)) this.contents.delete(file);
  }

  private forget(): void {
    this.changes++;
    this.found = null;
    this.contents.clear();
  }
}
