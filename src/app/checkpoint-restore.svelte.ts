// Putting the open session's workspace back as it was when one of its user messages was sent (the transcript stays),
// with one step of undo.
import { SNAPSHOT_EXCLUDE } from '../store';
import type { OpenSessionAccess } from './open-session-access';
import { restoreWorkspace } from './session-persistence';

/** The workspace as it was before restoring the checkpoint of user message `seq`. */
export type RestoreUndo = { seq: number; zip: Uint8Array };

const snapshotExclude = SNAPSHOT_EXCLUDE.flatMap((name) => [`${name}/**`, `**/${name}/**`]);

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
      await workspace.exclusive(async (runtime) => {
        const before = await runtime.exportZip({ exclude: snapshotExclude });
        await restoreWorkspace(this.session.store, runtime, id, { checkpoint: seq });
        this.undoable = { seq, zip: before };
      });
      await this.session.workspaceReplaced();
    });
  }

  /** Undoes the last checkpoint restore. */
  undo(): Promise<void> {
    const undo = this.undoable;
    this.undoable = null;
    if (!undo) return Promise.resolve();
    return this.session.exclusive(async () => {
      await this.session.writableWorkspace().exclusive((runtime) => runtime.importZip(undo.zip));
      await this.session.workspaceReplaced();
    });
  }

  /** Drops the undo: another session was opened. */
  forget(): void {
    this.undoable = null;
  }
}
