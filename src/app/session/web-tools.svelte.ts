// A session's switch for the provider's own web search and fetch: on or off, told to the session's subscribers
// (persistence stores it with the session), read by each run when it starts.
export class SessionWebTools {
  /** Offered to models that have them (ai/server-tools.ts) on this session's next requests. */
  on = $state(false);

  constructor(private readonly changed: (on: boolean) => void) {}

  /** Switches them, telling the session when it is a change. */
  set(on: boolean): void {
    if (this.on === on) return;
    this.on = on;
    this.changed(on);
  }
}
