// Main-thread tasks of a page from a Chromium trace, with their wall time and their CPU time (thread duration).
// The two differ when the machine is busy: a task may take 80 ms of wall time for 4 ms of work, and only the CPU
// figure says whether the page itself is at fault. Only the timeline category is traced, and only task events are
// kept, so a minute of tracing stays small.
import type { Page } from '@playwright/test';

type TraceEvent = { name: string; ph: string; ts: number; dur?: number; tdur?: number; pid: number; tid: number; args?: { name?: string } };

export type TracedTask = { startUs: number; wallMs: number; cpuMs: number };
export type TaskTrace = { stop(): Promise<TracedTask[]> };

/** Starts tracing the page's tasks; `stop()` returns the renderer main thread's tasks. */
export async function traceTasks(page: Page): Promise<TaskTrace> {
  const cdp = await page.context().newCDPSession(page);
  const tasks: TraceEvent[] = [];
  const threadNames = new Map<string, string>();
  cdp.on('Tracing.dataCollected', ({ value }) => {
    for (const raw of value as unknown as TraceEvent[]) {
      if (raw.ph === 'X' && raw.name === 'RunTask') tasks.push(raw);
      else if (raw.ph === 'M' && raw.name === 'thread_name' && raw.args?.name) threadNames.set(`${raw.pid}:${raw.tid}`, raw.args.name);
    }
  });
  await cdp.send('Tracing.start', {
    transferMode: 'ReportEvents',
    traceConfig: { recordMode: 'recordContinuously', includedCategories: ['disabled-by-default-devtools.timeline', '__metadata'], excludedCategories: ['*'] },
  });
  return {
    async stop() {
      const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
      await cdp.send('Tracing.end');
      await complete;
      await cdp.detach();
      // A renderer's main thread is named CrRendererMain; without names, on Linux its thread id is the process id.
      const isMain = (e: TraceEvent) => {
        const name = threadNames.get(`${e.pid}:${e.tid}`);
        return name ? name === 'CrRendererMain' : e.pid === e.tid;
      };
      return tasks.filter(isMain).map((e) => ({ startUs: e.ts, wallMs: (e.dur ?? 0) / 1000, cpuMs: (e.tdur ?? 0) / 1000 }));
    },
  };
}
