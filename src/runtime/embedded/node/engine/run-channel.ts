// How the host reaches one running program besides plain messages: the file-system reply the engine blocks on, and
// the control slots (stop, wake, events). A QuickJS engine worker shares memory with the host, so both are written
// into shared buffers here. The browser engine runs in a sandbox frame, whose memory the host cannot share: there the
// frame's relay owns the buffers and the host posts what to write (sandbox/).

import {
  CONTROL_BYTES,
  CONTROL_EVENTS,
  CONTROL_STOP,
  CONTROL_WAKE,
  REPLY_HEADER_BYTES,
  REPLY_INITIAL_BYTES,
  REPLY_KIND,
  REPLY_LENGTH,
  REPLY_STATE,
  ReplyKind,
  ReplyState,
  type EngineJob,
  type HostToEngine,
} from './protocol';
import type { FsAnswer } from './fs-service';

export type ControlSignal = 'stop' | 'wake' | 'event';

/** One run's channel to its engine. */
export interface RunChannel {
  /** Writes the reply the engine waits for; false when it did not fit and waits for a larger buffer (fs-grow). */
  reply(answer: FsAnswer): boolean;
  /** A larger reply buffer from the engine: the pending reply goes there. */
  grown(buffer: SharedArrayBuffer, answer: FsAnswer): void;
  /** stop: the program is to end; wake: rouse a sleeping engine; event: a host event for the guest, then wake. */
  signal(signal: ControlSignal): void;
}

const encoder = new TextEncoder();

/** Starts run `id` of `job` on an engine that shares memory with this thread, and returns its channel. */
export function startSharedRun(post: (message: HostToEngine) => void, id: number, job: EngineJob): RunChannel {
  let reply = new SharedArrayBuffer(REPLY_HEADER_BYTES + REPLY_INITIAL_BYTES);
  const control = new Int32Array(new SharedArrayBuffer(CONTROL_BYTES));
  post({ type: 'run', id, job, reply, control: control.buffer as SharedArrayBuffer });
  return {
    reply: (answer) => writeReply(reply, answer),
    grown: (buffer, answer) => {
      reply = buffer;
      writeReply(reply, answer);
    },
    signal: (signal) => signalControl(control, signal),
  };
}

/** Applies `signal` to a run's control slots. */
export function signalControl(control: Int32Array, signal: ControlSignal): void {
  if (signal === 'stop') Atomics.store(control, CONTROL_STOP, 1);
  if (signal === 'event') Atomics.add(control, CONTROL_EVENTS, 1);
  Atomics.store(control, CONTROL_WAKE, 1);
  Atomics.notify(control, CONTROL_WAKE);
}

/** Writes `answer` into the reply buffer and wakes the engine; false (and a TooBig reply) when it does not fit. */
export function writeReply(reply: SharedArrayBuffer, answer: FsAnswer): boolean {
  const header = new Int32Array(reply, 0, REPLY_HEADER_BYTES / 4);
  const payload =
    answer.kind === 'bytes'
      ? answer.bytes
      : encoder.encode(answer.kind === 'json' ? JSON.stringify(answer.value ?? null) : JSON.stringify({ code: answer.code, message: answer.message }));
  const fits = payload.length <= reply.byteLength - REPLY_HEADER_BYTES;
  if (fits) new Uint8Array(reply, REPLY_HEADER_BYTES, payload.length).set(payload);
  Atomics.store(header, REPLY_LENGTH, payload.length);
  Atomics.store(header, REPLY_KIND, fits ? (answer.kind === 'bytes' ? ReplyKind.Bytes : answer.kind === 'json' ? ReplyKind.Json : ReplyKind.Error) : ReplyKind.TooBig);
  Atomics.store(header, REPLY_STATE, ReplyState.Ready);
  Atomics.notify(header, REPLY_STATE);
  return fits;
}
