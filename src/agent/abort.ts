// Waiting on work that may ignore the abort signal (a provider, a hook awaiting a person, a tool) without letting
// it hold the run open after the person pressed Stop.

export const ABORTED: unique symbol = Symbol('aborted');
export type Aborted = typeof ABORTED;

/**
 * Settles like `work`, or with ABORTED once `signal` aborts (after `graceMs`, so work that does honour the signal
 * can still report what it got done). A rejection of `work` after that is absorbed, never unhandled.
 */
export function raceAbort<T>(work: Promise<T>, signal: AbortSignal | undefined, graceMs = 0): Promise<T | Aborted> {
  if (!signal) return work;
  return new Promise<T | Aborted>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onAbort = () => {
      if (graceMs <= 0) resolve(ABORTED);
      else timer = setTimeout(() => resolve(ABORTED), graceMs);
    };
    const cleanUp = () => {
      signal.removeEventListener('abort', onAbort);
      if (timer !== undefined) clearTimeout(timer);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        cleanUp();
        resolve(value);
      },
      (error: unknown) => {
        cleanUp();
        reject(error);
      },
    );
  });
}

/** The text of anything thrown, for a message the model or a person will read. */
export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}
