// A message of the open session the transcript should bring into view and mark for a moment: a search result the
// person opened, or a secret the export's review points at. The library asks; the transcript shows and says done.

export type RevealRequest = {
  sessionId: string;
  /** The message's seq (its index in the transcript); a tool result shows as the reply that made the call. */
  seq: number;
  /** New for each request, so asking twice for one message shows it twice. */
  id: number;
};

/** The one pending request to show a message. */
export class MessageReveal {
  request = $state.raw<RevealRequest | null>(null);
  private last = 0;

  show(sessionId: string, seq: number): void {
    this.request = { sessionId, seq, id: ++this.last };
  }

  /** The transcript showed request `id` (or could not): it is no longer pending. */
  done(id: number): void {
    if (this.request?.id === id) this.request = null;
  }
}
