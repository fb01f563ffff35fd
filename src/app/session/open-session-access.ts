// The narrow view of the session library that its helpers (transfers, checkpoint restore) work through, so they
// reach the open session, its sandbox and the library's queue without reaching into the library's private state.
import type { Workspace } from '../../runtime/workspace/workspace';
import type { SessionStore } from '../../store';
import type { WorkspaceSnapshots } from './workspace-snapshots';

/** What the library's helpers need of it: the open session, its sandbox and the library's work queue. */
export interface OpenSessionAccess {
  readonly store: SessionStore;
  /** The trees of the page's sandbox: what it holds, and restores that write only what differs. */
  readonly snapshots: WorkspaceSnapshots;
  /** The open session, or null before one is open. */
  current(): { id: string; title: string } | null;
  /** The sandbox's workspace; throws a message for the person while it starts. */
  workspace(): Workspace;
  /** The workspace when the open session may change it; throws why not (read-only, agent working) otherwise. */
  writableWorkspace(): Workspace;
  /** Waits until the open session's transcript and workspace are stored. */
  flush(): Promise<void>;
  /** Stores the open session's workspace after it was replaced as a whole. */
  workspaceReplaced(): Promise<void>;
  /** Runs `job` after the library's open/switch work, so no switch happens halfway through it. */
  queue<T>(job: () => Promise<T>): Promise<T>;
  /** Runs `job` as one of the library's open/switch steps (busy meanwhile); its failure becomes the library's notice. */
  exclusive(job: () => Promise<void>): Promise<void>;
  /** Shows a storage problem (a full disk) to the person. */
  storageProblem(error: unknown): void;
  /** Reads the session list again. */
  refresh(): Promise<void>;
  open(id: string): Promise<void>;
}
