// `perf_hooks` inside the guest: the global `performance` (globals/web.ts) with marks and measures kept, as
// TypeScript's --extendedDiagnostics and Prettier's --log-level=debug timings read them. No observers fire: nothing
// in the sandbox produces GC or event-loop entries.

type Entry = { name: string; entryType: 'mark' | 'measure'; startTime: number; duration: number; detail: unknown };

type GlobalPerformance = { now(): number; timeOrigin: number };

/** Builds perf_hooks around the global `performance`, which gains the marks and measures (one object, as in Node). */
export function createPerfHooks(global: GlobalPerformance): Record<string, unknown> {
  const now = () => global.now();
  const timeOrigin = global.timeOrigin;
  const entries: Entry[] = [];
  const startOf = (mark: string | undefined, fallback: number): number => {
    if (mark === undefined) return fallback;
    const found = [...entries].reverse().find((entry) => entry.entryType === 'mark' && entry.name === mark);
    // Node throws a DOMException named SyntaxError (legacy code 12).
    if (!found) throw Object.assign(new DOMException(`The "${mark}" performance mark has not been set`, 'SyntaxError'), { code: 12 });
    return found.startTime;
  };
  const performance = Object.assign(global, {
    mark(name: string, options?: { startTime?: number; detail?: unknown }): Entry {
      const entry: Entry = { name: String(name), entryType: 'mark', startTime: options?.startTime ?? now(), duration: 0, detail: options?.detail ?? null };
      entries.push(entry);
      return entry;
    },
    measure(name: string, start?: string | { start?: string; end?: string }, end?: string): Entry {
      const from = typeof start === 'object' ? start.start : start;
      const to = typeof start === 'object' ? start.end : end;
      const startTime = startOf(from, 0);
      const entry: Entry = { name: String(name), entryType: 'measure', startTime, duration: startOf(to, now()) - startTime, detail: null };
      entries.push(entry);
      return entry;
    },
    clearMarks(name?: string) {
      removeWhere((entry) => entry.entryType === 'mark' && (name === undefined || entry.name === name));
    },
    clearMeasures(name?: string) {
      removeWhere((entry) => entry.entryType === 'measure' && (name === undefined || entry.name === name));
    },
    getEntries: () => entries.slice(),
    getEntriesByName: (name: string, type?: string) => entries.filter((entry) => entry.name === name && (type === undefined || entry.entryType === type)),
    getEntriesByType: (type: string) => entries.filter((entry) => entry.entryType === type),
    toJSON: () => ({ timeOrigin }),
  });
  function removeWhere(test: (entry: Entry) => boolean): void {
    for (let i = entries.length - 1; i >= 0; i--) if (test(entries[i])) entries.splice(i, 1);
  }
  class PerformanceObserver {
    static readonly supportedEntryTypes = ['mark', 'measure'];
    constructor(readonly callback: (list: unknown, observer: PerformanceObserver) => void) {}
    observe(): void {}
    disconnect(): void {}
    takeRecords(): Entry[] {
      return [];
    }
  }
  return {
    performance,
    PerformanceObserver,
    constants: { NODE_PERFORMANCE_GC_MAJOR: 4, NODE_PERFORMANCE_GC_MINOR: 1, NODE_PERFORMANCE_GC_INCREMENTAL: 8, NODE_PERFORMANCE_GC_WEAKCB: 16 },
    monitorEventLoopDelay: () => ({ enable: () => true, disable: () => true, reset() {}, percentile: () => 0, min: 0, max: 0, mean: 0, stddev: 0, percentiles: new Map(), exceeds: 0 }),
    createHistogram: () => ({ record() {}, recordDelta() {}, reset() {}, percentile: () => 0, min: 0, max: 0, mean: 0, stddev: 0, count: 0, percentiles: new Map(), exceeds: 0 }),
  };
}
