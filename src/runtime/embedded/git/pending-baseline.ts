// Which imported tree the workspace's repository is still to be made from. The runtime sets it (after an import or
// a restore) and arms it again whenever the workspace is replaced; the git command makes the repository from it the
// first time git runs in a workspace without `.git`, then settles it. Until then nothing is hashed.

import type { WorkspaceBaseline } from '../../types';

export class PendingBaseline {
  private baseline: WorkspaceBaseline | null = null;
  private armed = false;

  /** Sets the workspace's baseline (null: it started empty, so git starts without a repository). */
  set(baseline: WorkspaceBaseline | null): void {
    this.baseline = baseline;
    this.armed = baseline !== null;
  }

  /** The same state, to change on its own from now on (a fork's git makes its repository in the fork). */
  copy(): PendingBaseline {
    const copy = new PendingBaseline();
    copy.baseline = this.baseline;
    copy.armed = this.armed;
    return copy;
  }

  /** The workspace was replaced as a whole: if the new files have no `.git`, the repository is to be made again. */
  rearm(): void {
    this.armed = this.baseline !== null;
  }

  /** The baseline still to be committed, or null when there is none or the repository already exists. */
  pending(): WorkspaceBaseline | null {
    return this.armed ? this.baseline : null;
  }

  /**
   * The repository for `baseline` exists now (made from it, or found): nothing to do until the next set or rearm.
   * A baseline set meanwhile stays pending.
   */
  settle(baseline: WorkspaceBaseline): void {
    if (this.baseline === baseline) this.armed = false;
  }
}
