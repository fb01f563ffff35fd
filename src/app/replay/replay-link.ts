// The replay position in the page's address: `#replay=<step>`, 1-based, so a reload (or a shared link) keeps it.

/** The step (1-based) a hash such as "#replay=12" names, or null when it names none. */
export function replayStepOfHash(hash: string): number | null {
  const match = /^#?replay=(\d{1,7})$/.exec(hash);
  if (!match) return null;
  const step = Number(match[1]);
  return step >= 1 ? step : null;
}

/** The hash for 1-based `step`. */
export function replayHash(step: number): string {
  return `#replay=${step}`;
}
