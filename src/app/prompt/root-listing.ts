// The workspace root's names for the system prompt, kept for the session: listing the root of a 20,000-file
// in-memory workspace costs tens of milliseconds on every request, while the root itself rarely changes. It is
// listed again once the watch reports a change at the top level (an entry made, moved or removed there) or below a
// name it did not hold.
import type { Workspace } from '../../runtime/workspace/workspace';

/** The root's listing of one session's workspace: names, folders ending with '/', sorted. */
export class RootListing {
  private names: string[] | null = null;
  private known = new Set<string>();
  private listedOn: unknown = null;
  private stopWatching: (() => void) | null = null;

  constructor(private readonly workspace: Workspace) {}

  /** The listing as it is now; empty when the root cannot be read (and then listed again next time). */
  async current(): Promise<string[]> {
    this.stopWatching ??= this.workspace.watch((paths) => this.heard(paths));
    await this.workspace.settleChanges().catch(() => false);
    if (this.names && this.listedOn === this.workspace.current) return this.names;
    const runtime = this.workspace.current;
    try {
      const entries = await this.workspace.readdir(this.workspace.workdir);
      const names = entries.map((e) => (e.type === 'dir' ? `${e.name}/` : e.name)).sort((a, b) => a.localeCompare(b));
      this.names = names;
      this.known = new Set(entries.map((e) => e.name));
      this.listedOn = runtime;
      return names;
    } catch {
      return [];
    }
  }

  /** Stops listening to the workspace (the session closed). */
  dispose(): void {
    this.stopWatching?.();
    this.stopWatching = null;
  }

  private heard(paths: string[]): void {
    if (paths.some((path) => path === '' || !path.includes('/') || !this.known.has(path.slice(0, path.indexOf('/'))))) this.names = null;
  }
}
