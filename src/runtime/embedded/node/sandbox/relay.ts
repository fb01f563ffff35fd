// The relay: the sandbox frame's side of the browser engine, in a worker of its own inside the frame. It starts the
// engine workers, owns each run's shared reply and control buffers (memory the host's worker cannot share, being of
// another origin), writes into them what the host posts, and passes the engines' messages on after checking them.
// It trusts neither side's shapes blindly: the host's are checked for form, the engines' are rebuilt.

import { REPLY_HEADER_BYTES, REPLY_INITIAL_BYTES, CONTROL_BYTES, type GuestSources } from '../engine/protocol';
import type { FsAnswer } from '../engine/fs-service';
import { signalControl, writeReply, type ControlSignal } from '../engine/run-channel';
import { checkEngineMessage } from './message-checks';
import { MAX_ENGINE_HEAP_BYTES, type HostToRelay, type RelayToEngine, type RelayToHost } from './sandbox-protocol';

/** The largest reply buffer an engine may hand over (fs-grow). */
const MAX_REPLY_BYTES = 1024 * 1024 * 1024 + REPLY_HEADER_BYTES;
const MAX_WORKERS = 64;

/**
 * An engine worker as the relay sees it (a blob: worker in the frame, a worker_threads worker in tests). `url`: the
 * script address it was started from, one of its own, by which the heap probe names it.
 */
export type RelayEngineWorker = {
  url?: string;
  post(message: RelayToEngine): void;
  onMessage(listener: (data: unknown) => void): void;
  onError(listener: (reason: string) => void): void;
  terminate(): void;
};

/** The relay's line to the host. */
export type RelayLine = { post(message: RelayToHost): void; onMessage(listener: (data: unknown) => void): void };

type Run = { id: number; reply: SharedArrayBuffer; control: Int32Array; pending?: FsAnswer };
type Slot = { engine: RelayEngineWorker; run?: Run };

/** What the frame tells the relay: the heap probe's bytes per worker script address. */
export type RelayControl = { heapMeasured(sizes: unknown): void };

/** Serves the host on `line`, starting engine workers with `spawn(engineSource)`. */
export function startRelay(line: RelayLine, spawn: (engineSource: string) => RelayEngineWorker): RelayControl {
  let setup: { engine: string; guest: GuestSources } | undefined;
  const slots = new Map<number, Slot>();

  const exit = (worker: number, reason: string) => {
    const slot = slots.get(worker);
    if (!slot) return;
    slots.delete(worker);
    slot.engine.terminate();
    line.post({ type: 'exit', worker, reason });
  };

  line.onMessage((data) => {
    try {
      fromHost(data as HostToRelay);
    } catch {
      // a malformed message from the host changes nothing
    }
  });

  return {
    heapMeasured(sizes) {
      if (!Array.isArray(sizes)) return;
      for (const entry of sizes.slice(0, 10_000) as unknown[]) {
        if (!Array.isArray(entry) || typeof entry[0] !== 'string' || typeof entry[1] !== 'number' || !(entry[1] > MAX_ENGINE_HEAP_BYTES)) continue;
        for (const [worker, slot] of slots) {
          if (slot.engine.url !== entry[0] || !slot.run) continue;
          const gb = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(1)} GB`;
          exit(worker, `JavaScript heap out of memory: the program's heap reached ${gb(entry[1])}, past the browser engine's ${gb(MAX_ENGINE_HEAP_BYTES)} limit`);
        }
      }
    },
  };

  function fromHost(message: HostToRelay): void {
    if (typeof message !== 'object' || message === null) return;
    switch (message.type) {
      case 'init':
        if (typeof message.engine === 'string' && isGuest(message.guest)) setup = { engine: message.engine, guest: message.guest };
        return;
      case 'start': {
        const worker = message.worker;
        if (!Number.isSafeInteger(worker) || slots.has(worker)) return;
        if (!setup || slots.size >= MAX_WORKERS) {
          line.post({ type: 'exit', worker, reason: setup ? `more than ${MAX_WORKERS} engine workers` : 'the relay was not initialised' });
          return;
        }
        let engine: RelayEngineWorker;
        try {
          engine = spawn(setup.engine);
        } catch (error) {
          line.post({ type: 'exit', worker, reason: error instanceof Error ? error.message : String(error) });
          return;
        }
        const slot: Slot = { engine };
        slots.set(worker, slot);
        engine.onMessage((value) => fromEngine(worker, slot, value));
        engine.onError((reason) => exit(worker, reason));
        engine.post({ type: 'init', guest: setup.guest });
        return;
      }
      case 'run': {
        const slot = slots.get(message.worker);
        if (!slot || slot.run || !Number.isSafeInteger(message.id)) return;
        const reply = new SharedArrayBuffer(REPLY_HEADER_BYTES + REPLY_INITIAL_BYTES);
        const control = new SharedArrayBuffer(CONTROL_BYTES);
        slot.run = { id: message.id, reply, control: new Int32Array(control) };
        slot.engine.post({ type: 'run', id: message.id, job: message.job, reply, control });
        return;
      }
      case 'fs-reply': {
        const run = slots.get(message.worker)?.run;
        if (!run || run.id !== message.id || !isAnswer(message.answer)) return;
        if (!writeReply(run.reply, message.answer)) run.pending = message.answer;
        return;
      }
      case 'control': {
        const run = slots.get(message.worker)?.run;
        if (run && run.id === message.id && isSignal(message.signal)) signalControl(run.control, message.signal);
        return;
      }
      case 'terminate': {
        const slot = slots.get(message.worker);
        slots.delete(message.worker);
        slot?.engine.terminate();
        return;
      }
    }
  }

  function fromEngine(worker: number, slot: Slot, value: unknown): void {
    try {
      relayEngineMessage(worker, slot, value);
    } catch {
      // a malformed message from a program changes nothing
    }
  }

  function relayEngineMessage(worker: number, slot: Slot, value: unknown): void {
    if (slots.get(worker) !== slot) return;
    const grow = value as { type?: unknown; id?: unknown; reply?: unknown };
    if (typeof grow === 'object' && grow !== null && grow.type === 'fs-grow') {
      const run = slot.run;
      const reply = grow.reply;
      if (!run?.pending || grow.id !== run.id || !(reply instanceof SharedArrayBuffer) || reply.byteLength <= run.reply.byteLength || reply.byteLength > MAX_REPLY_BYTES) return;
      run.reply = reply;
      if (writeReply(reply, run.pending)) run.pending = undefined;
      return;
    }
    const message = checkEngineMessage(value);
    if (!message) return;
    if (message.type === 'done') slot.run = undefined;
    try {
      line.post({ type: 'from-engine', worker, message });
    } catch (error) {
      exit(worker, `its message could not be passed on: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

function isGuest(value: unknown): value is GuestSources {
  const guest = value as GuestSources;
  return typeof guest === 'object' && guest !== null && typeof guest.core === 'string' && typeof guest.packages === 'object' && guest.packages !== null;
}

function isAnswer(value: unknown): value is FsAnswer {
  const answer = value as FsAnswer;
  if (typeof answer !== 'object' || answer === null) return false;
  if (answer.kind === 'bytes') return answer.bytes instanceof Uint8Array;
  if (answer.kind === 'error') return typeof answer.code === 'string' && typeof answer.message === 'string';
  return answer.kind === 'json';
}

function isSignal(value: unknown): value is ControlSignal {
  return value === 'stop' || value === 'wake' || value === 'event';
}
