// The sandbox frame's document: a CSP that allows inline and blob: scripts and nothing else (no fetch, no sockets, no
// remote scripts; blob: workers inherit it), and the frame's one script (frameScript below, inlined as source text).
// The frame is a srcdoc iframe with sandbox="allow-scripts" and no allow-same-origin, so its origin is opaque ("null"):
// no storage, no cookies, a cross-origin parent. Its script answers the page's probe and starts one relay worker for
// each runtime worker that connects.

export const FRAME_CSP = "default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval' blob:; worker-src blob:";

/** The srcdoc of the sandbox frame. */
export function sandboxFrameDocument(): string {
  return `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${FRAME_CSP}"></head><body><script>(${frameScript.toString()})();</script></body></html>`;
}

/** What the frame's probe found: each check the browser engine depends on. */
export type FrameProbe = {
  origin: string;
  isolated: boolean;
  /** performance.measureUserAgentSpecificMemory is there (it needs isolation): the relay is told each worker's heap. */
  heapProbe?: boolean;
  storage: 'blocked' | 'reachable';
  worker: { started: boolean; isolated: boolean; waited: boolean; evaluates: boolean; storage: 'blocked' | 'reachable' };
};

// Runs inside the frame, as its own source text: it may use nothing from this module's scope.
function frameScript(): void {
  let relay: Worker | null = null;
  let relayUrl: string | null = null;
  type Measurement = { breakdown: { bytes: number; attribution: { url: string; scope: string }[] }[] };
  const measureMemory = () =>
    self.crossOriginIsolated ? (performance as unknown as { measureUserAgentSpecificMemory?: () => Promise<Measurement> }).measureUserAgentSpecificMemory : undefined;
  // The heap of each of the frame's workers, measured again and again while `watched` is the relay (a figure comes
  // with the browser's next garbage collection, within some 20 seconds), sent to it by worker script address.
  const watchHeap = async (watched: Worker) => {
    const measure = measureMemory();
    while (measure && relay === watched) {
      let sizes: [string, number][];
      try {
        const result = await measure.call(performance);
        sizes = result.breakdown.flatMap((entry) => entry.attribution.filter((where) => where.scope === 'DedicatedWorkerGlobalScope').map((where): [string, number] => [where.url, entry.bytes]));
      } catch {
        return;
      }
      if (relay === watched) watched.postMessage({ type: 'heap', sizes });
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  };
  const storageOf = (): 'blocked' | 'reachable' => {
    try {
      indexedDB.open('conch-probe');
      return 'reachable';
    } catch {
      return 'blocked';
    }
  };
  const probeWorker = (): Promise<FrameProbe['worker']> =>
    new Promise((resolve) => {
      const failed = { started: false, isolated: false, waited: false, evaluates: false, storage: 'reachable' as const };
      const source = `onmessage = (event) => {
        const cell = new Int32Array(event.data);
        const started = performance.now();
        const result = Atomics.wait(cell, 0, 0, 20);
        let evaluates = false;
        try { evaluates = (0, eval)('6 * 7') === 42 && new Function('return 1')() === 1; } catch {}
        let storage = 'blocked';
        try { indexedDB.open('conch-probe'); storage = 'reachable'; } catch {}
        postMessage({ started: true, isolated: self.crossOriginIsolated === true, waited: result === 'timed-out' && performance.now() - started >= 15, evaluates, storage });
      };`;
      try {
        const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
        const worker = new Worker(url);
        const timer = setTimeout(() => {
          worker.terminate();
          resolve(failed);
        }, 3000);
        worker.onmessage = (event) => {
          clearTimeout(timer);
          worker.terminate();
          URL.revokeObjectURL(url);
          resolve(event.data as FrameProbe['worker']);
        };
        worker.onerror = () => {
          clearTimeout(timer);
          resolve(failed);
        };
        worker.postMessage(new SharedArrayBuffer(4));
      } catch {
        resolve(failed);
      }
    });
  addEventListener('message', (event: MessageEvent) => {
    if (event.source !== parent) return;
    const data = event.data as { type?: string; relay?: unknown; port?: unknown };
    if (data?.type === 'probe') {
      void probeWorker().then((worker) => {
        const probe: FrameProbe = { origin: self.origin, isolated: self.crossOriginIsolated === true, heapProbe: typeof measureMemory() === 'function', storage: storageOf(), worker };
        parent.postMessage({ type: 'probe-result', probe }, '*');
      });
    } else if (data?.type === 'connect' && typeof data.relay === 'string' && data.port instanceof MessagePort) {
      relay?.terminate(); // one runtime worker at a time: its predecessor was replaced
      relayUrl ??= URL.createObjectURL(new Blob([data.relay], { type: 'text/javascript' }));
      relay = new Worker(relayUrl, { name: 'conch-node-relay' });
      relay.postMessage({ type: 'connect', port: data.port }, [data.port]);
      void watchHeap(relay);
    }
  });
  parent.postMessage({ type: 'frame-ready' }, '*');
}
