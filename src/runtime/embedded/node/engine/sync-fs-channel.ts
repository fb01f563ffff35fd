// The engine's side of the file-system bridge: a request goes to the host as a message and the engine blocks in
// Atomics.wait until the host has written the reply into the shared buffer. That is what lets the guest's `require`
// and `fs.readFileSync` be synchronous over just-bash's asynchronous file system.

import {
  REPLY_HEADER_BYTES,
  REPLY_KIND,
  REPLY_LENGTH,
  REPLY_STATE,
  ReplyKind,
  ReplyState,
  type EngineToHost,
  type FsRequest,
} from './protocol';

export type FsReply = { kind: 'json'; text: string } | { kind: 'bytes'; bytes: Uint8Array } | { kind: 'error'; code: string; message: string };

/** How often a wait for the host checks whether the program is being stopped. */
const STOP_POLL_MS = 20;

/** Blocking request/reply calls for one run; `send` posts to the host. */
export class SyncFsChannel {
  private header: Int32Array;
  private readonly decoder = new TextDecoder();

  constructor(
    private buffer: SharedArrayBuffer,
    private readonly runId: number,
    private readonly send: (message: EngineToHost) => void,
    private readonly stopRequested: () => boolean,
  ) {
    this.header = new Int32Array(buffer, 0, REPLY_HEADER_BYTES / 4);
  }

  /** Sends `request` and waits for its reply (growing the shared buffer once when the reply does not fit). */
  call(request: FsRequest): FsReply {
    Atomics.store(this.header, REPLY_STATE, ReplyState.Waiting);
    this.send({ type: 'fs', id: this.runId, request });
    this.await();
    if (Atomics.load(this.header, REPLY_KIND) === ReplyKind.TooBig) {
      const needed = Atomics.load(this.header, REPLY_LENGTH);
      this.buffer = new SharedArrayBuffer(REPLY_HEADER_BYTES + Math.max(needed, this.buffer.byteLength * 2));
      this.header = new Int32Array(this.buffer, 0, REPLY_HEADER_BYTES / 4);
      this.send({ type: 'fs-grow', id: this.runId, reply: this.buffer });
      this.await();
    }
    return this.read();
  }

  /** Waits for the host's reply; gives up when the program is being stopped (the host may be gone by then). */
  private await(): void {
    while (Atomics.load(this.header, REPLY_STATE) === ReplyState.Waiting) {
      if (this.stopRequested()) throw new Error('The program was stopped while it waited for the file system.');
      Atomics.wait(this.header, REPLY_STATE, ReplyState.Waiting, STOP_POLL_MS);
    }
  }

  private read(): FsReply {
    const length = Atomics.load(this.header, REPLY_LENGTH);
    const kind = Atomics.load(this.header, REPLY_KIND) as ReplyKind;
    // Copied out of the shared buffer: the next call overwrites it, and TextDecoder refuses shared views.
    const bytes = new Uint8Array(this.buffer, REPLY_HEADER_BYTES, length).slice();
    switch (kind) {
      case ReplyKind.Bytes:
        return { kind: 'bytes', bytes };
      case ReplyKind.Json:
        return { kind: 'json', text: length === 0 ? 'null' : this.decoder.decode(bytes) };
      case ReplyKind.Error: {
        const error = JSON.parse(this.decoder.decode(bytes)) as { code: string; message: string };
        return { kind: 'error', code: error.code, message: error.message };
      }
      default:
        return { kind: 'error', code: 'EIO', message: `EIO: the host sent an unreadable reply (kind ${kind})` };
    }
  }
}
