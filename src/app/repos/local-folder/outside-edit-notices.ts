// What changed on disk since a session's last run, told to the model once: the line waits here, per session, until
// the next run's prompt takes it.

export class OutsideEditNotices {
  private readonly pending = new Map<string, string>();

  /** Keeps `line` for session `sessionId`'s next run (a later refresh's line replaces it: it names everything since). */
  set(sessionId: string, line: string): void {
    this.pending.set(sessionId, line);
  }

  /** The lines waiting for session `sessionId`'s run, removed as they are given. */
  take(sessionId: string): string[] {
    const line = this.pending.get(sessionId);
    this.pending.delete(sessionId);
    return line ? [line] : [];
  }
}
