// The messages of the browser engine (src/runtime/embedded/node/sandbox/): between the embedded runtime's worker (the
// host) and the relay in the sandbox frame, over the one MessagePort the page handed both; and between the relay and
// its engine workers, inside the frame. Shared memory cannot cross into the frame (it is another origin), so the
// relay owns each run's reply and control buffers and the host posts what to write into them. Nothing the frame
// sends is trusted: the host checks every message (message-checks.ts).

import type { EngineJob, EngineToHost, GuestSources } from '../engine/protocol';
import type { FsAnswer } from '../engine/fs-service';
import type { ControlSignal } from '../engine/run-channel';

/**
 * A program's heap past which the frame's heap probe (performance.measureUserAgentSpecificMemory, where the browser
 * has it) stops it: browsers give no per-worker cap, and a worker's isolate fails near 4 GB, taking the frame's
 * process with it. The probe's figure comes with the next garbage collection, seconds late.
 */
export const MAX_ENGINE_HEAP_BYTES = 2 * 1024 ** 3;

/** Host -> relay. `worker` numbers the host's engine workers; the relay keeps one engine worker per number. */
export type HostToRelay =
  /** The engine worker's script and the guest environment, once, before any worker starts. */
  | { type: 'init'; engine: string; guest: GuestSources }
  /** Start engine worker `worker` (it evaluates the guest and says 'ready'). */
  | { type: 'start'; worker: number }
  | { type: 'run'; worker: number; id: number; job: EngineJob }
  /** The reply to the file-system request the run is blocked on. */
  | { type: 'fs-reply'; worker: number; id: number; answer: FsAnswer }
  | { type: 'control'; worker: number; id: number; signal: ControlSignal }
  | { type: 'terminate'; worker: number };

/** Relay -> host: an engine worker's message (checked on arrival), or its end. */
export type RelayToHost =
  | { type: 'from-engine'; worker: number; message: EngineToHost }
  | { type: 'exit'; worker: number; reason: string };

/** Relay -> engine worker. */
export type RelayToEngine =
  | { type: 'init'; guest: GuestSources }
  | { type: 'run'; id: number; job: EngineJob; reply: SharedArrayBuffer; control: SharedArrayBuffer };
