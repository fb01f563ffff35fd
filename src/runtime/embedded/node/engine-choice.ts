// Which engine `node` runs on, and why: the browser's own (in the sandbox frame) once the page's boot probe has
// proved the frame isolated and handed it over, QuickJS otherwise. `node --engine=quickjs` forces the fallback.
// One choice per runtime, shared by its forks' shells; it can change while the runtime lives (the frame arrives
// after the runtime's worker has started).

import type { EngineSource } from './engine/worker-start';

export type NodeEngineName = 'browser' | 'quickjs';

/** The engine chosen, and the reason in words for the runtime details. */
export type NodeEngineState = { engine: NodeEngineName; reason: string };

const NO_FRAME = 'QuickJS: no sandbox frame was handed to this runtime';

export class NodeEngineChoice {
  private browserEngine: EngineSource | null = null;
  private why = NO_FRAME;
  private readonly listeners = new Set<() => void>();

  /** The browser engine from now on (`browser`), or QuickJS (null) because of `reason`. */
  set(browser: EngineSource | null, reason: string): void {
    this.browserEngine = browser;
    this.why = reason;
    for (const listener of this.listeners) listener();
  }

  /** The browser engine if it is chosen. */
  browser(): EngineSource | null {
    return this.browserEngine;
  }

  state(): NodeEngineState {
    return { engine: this.browserEngine ? 'browser' : 'quickjs', reason: this.why };
  }

  /** Calls `listener` whenever the choice changes; returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
