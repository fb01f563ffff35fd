// Watching a runtime in a contract case: its batches recorded, and a wait for the one that reports a path.

import type { Runtime } from '../../types';

/** Records a runtime's watch batches and waits for the one that reports a path (events, not fixed sleeps). */
export function recordWatch(rt: Runtime) {
  const batches: string[][] = [];
  const waiters = new Set<() => void>();
  const stop = rt.watch((paths) => {
    batches.push(paths);
    for (const wake of [...waiters]) wake();
  });
  const reported = (path: string) => batches.some((batch) => batch.includes(path));
  return {
    batches,
    stop,
    /** Resolves once a batch reported `path`; fails after 3 s, naming what was reported. */
    async until(path: string): Promise<void> {
      const deadline = Date.now() + 3000;
      while (!reported(path)) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`watch never reported ${path}; saw ${batches.flat().join(', ') || 'nothing'}`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(wake, left);
          waiters.add(wake);
        });
      }
    },
  };
}
