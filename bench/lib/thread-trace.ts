// Tasks of every thread of a page's renderer from a Chromium trace (the main thread and its workers), with wall and
// CPU time, so a bench can tell how long the embedded runtime's worker was busy in a window of time. Only the
// timeline category is traced and only task events are kept.
import type { Page } from '@playwright/test';

type TraceEvent = {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  id?: string;
  id2?: { local?: string };
  cat?: string;
  args?: { name?: string; data?: { message?: string } };
};

/** A User Timing measure of the page as the trace saw it (trace clock, µs). */
export type TracedMeasure = { name: string; startUs: number; endUs: number };

/** One task: when it started (trace clock, µs), its wall and CPU time, and the name of its thread. */
export type ThreadTask = { thread: string; startUs: number; wallMs: number; cpuMs: number };
export type ThreadTrace = {
  /** Puts a named mark into the trace (console.timeStamp in the page), to find a window of time afterwards. */
  mark(label: string): Promise<void>;
  /** The tasks, each mark's time on the trace clock (µs), and the page's User Timing measures. */
  stop(): Promise<{ tasks: ThreadTask[]; marks: Map<string, number>; measures: TracedMeasure[] }>;
};

/** Starts tracing every thread's tasks; `stop()` returns them, each with its thread's name. */
export async function traceThreads(page: Page): Promise<ThreadTrace> {
  const cdp = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  const marks = new Map<string, number>();
  const timing: TraceEvent[] = [];
  const threadNames = new Map<string, string>();
  cdp.on('Tracing.dataCollected', ({ value }) => {
    for (const raw of value as unknown as TraceEvent[]) {
      if (raw.ph === 'X' && raw.name === 'RunTask') events.push(raw);
      else if (raw.name === 'TimeStamp' && raw.args?.data?.message) marks.set(raw.args.data.message, raw.ts);
      else if (raw.cat?.includes('blink.user_timing') && (raw.ph === 'b' || raw.ph === 'e')) timing.push(raw);
      else if (raw.ph === 'M' && raw.name === 'thread_name' && raw.args?.name) threadNames.set(`${raw.pid}:${raw.tid}`, raw.args.name);
    }
  });
  await cdp.send('Tracing.start', {
    transferMode: 'ReportEvents',
    traceConfig: { recordMode: 'recordContinuously', includedCategories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', '__metadata'], excludedCategories: ['*'] },
  });
  return {
    mark: (label) => page.evaluate((l) => console.timeStamp(l), label),
    async stop() {
      const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
      await cdp.send('Tracing.end');
      await complete;
      await cdp.detach();
      const tasks = events.map((e) => ({
        thread: threadNames.get(`${e.pid}:${e.tid}`) ?? (e.pid === e.tid ? 'CrRendererMain' : `thread ${e.tid}`),
        startUs: e.ts,
        wallMs: (e.dur ?? 0) / 1000,
        cpuMs: (e.tdur ?? 0) / 1000,
      }));
      // A measure is a begin and an end event with the same name and id.
      const open = new Map<string, number>();
      const measures: TracedMeasure[] = [];
      for (const e of [...timing].sort((a, b) => a.ts - b.ts)) {
        const key = `${e.name}:${e.id ?? e.id2?.local ?? ''}`;
        if (e.ph === 'b') open.set(key, e.ts);
        else if (open.has(key)) {
          measures.push({ name: e.name, startUs: open.get(key)!, endUs: e.ts });
          open.delete(key);
        }
      }
      return { tasks, marks, measures };
    },
  };
}

/** The tasks of threads named like `thread` that started within [fromUs, toUs]. */
export function tasksIn(tasks: ThreadTask[], thread: RegExp, fromUs: number, toUs: number): ThreadTask[] {
  return tasks.filter((t) => thread.test(t.thread) && t.startUs >= fromUs && t.startUs <= toUs);
}
