// User Timing measures named conch:* around the storage work a person waits for (snapshots, restores, forks), so a
// trace or the snapshot bench can see how long each took; they cost nothing when nobody looks.

/** Runs `work` and records it as the measure `conch:<name>` (with `detail`, when given, from its result). */
export async function timed<T>(name: string, work: () => Promise<T>, detail?: (result: T) => unknown): Promise<T> {
  const start = performance.now();
  const result = await work();
  performance.measure?.(`conch:${name}`, { start, end: performance.now(), detail: detail?.(result) });
  return result;
}
