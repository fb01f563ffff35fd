// Putting the open session's workspace back as it was when one of its user messages was sent (the transcript stays),
// with one step of undo. Only what differs is written; folders snapshots leave out (node_modules) stay as they are.
import type { WorkspaceChanges } from '../../runtime/types';
import type { OpenSessionAccess } from './open-session-access';
import { storedRoot } from './persistence';
import { timed } from '../user-timing';

/** What puts the workspace back as it was before restoring the checkpoint of user message `seq`. */
export type RestoreUndo = { seq: number; changes: WorkspaceChanges };

/** Checkpoint restores of the open session; components call it as `library.restore`. */
export class CheckpointRestore {
  /** The workspace as it was before the last checkpoint restore, for "Undo". */
  undoable = $state.raw<RestoreUndo | null>(null);
  private readonly session: OpenSessionAccess;

  constructor(session: OpenSessionAccess) {
    this.session = session;
  }

  /** Puts the workspace back as it was when user message `seq` was sent (the transcript stays). */
  toCheckpoint(seq: number): Promise<void> {
    return this.session.exclusive(async () => {
      const workspace = this.session.writableWorkspace();
      const id = this.session.current()!.id;
      const { store, snapshots } = this.session;
      await store.upgradeSnapshots(id).catch(() => undefined); // a zip that stays is read in memory
      const root = await storedRoot(store, snapshots, id, { checkpoint: seq });
      if (root === undefined) throw new Error(`No workspace was kept for message ${seq}, so there is nothing to restore.`);
      const changes = await timed('restore', () => workspace.exclusive((runtime) => snapshots.restore(runtime, root)));
      this.undoable = { seq, changes };
      await this.session.workspaceReplaced();
    });
  }

  /** Undoes the last checkpoint restore. */
  undo(): Promise<void> {
    const undo = this.undoable;
    this.undoable = null;
    if (!undo) return Promise.resolve();
    return this.session.exclusive(async () => {
      await this.session.writableWorkspace().exclusive((runtime) => this.session.snapshots.apply(runtime, undo.changes));
      await this.session.workspaceReplaced();
    });
  }

  /** Drops the undo: another session was opened. */
  forget(): void {
    this.undoable = null;
  }
}
