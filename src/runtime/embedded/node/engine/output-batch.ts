// A program's output on its way to the host, in batches: one message per console.log would cost more than the
// logging. Both engines (QuickJS, and the browser's own in the sandbox frame) send it this way.

import type { EngineToHost } from './protocol';

const OUTPUT_BATCH_BYTES = 64 * 1024;

export class OutputBatch {
  private chunks: [1 | 2, string][] = [];
  private size = 0;
  /** How many pieces were written in all, flushed or not. */
  written = 0;

  constructor(
    private readonly send: (message: EngineToHost) => void,
    private readonly runId: number,
  ) {}

  /** Adds `text` for stdout (1) or stderr (2); sends the batch once it is big enough. */
  write(fd: 1 | 2, text: string): void {
    if (text === '') return;
    this.chunks.push([fd, text]);
    this.written++;
    this.size += text.length;
    if (this.size >= OUTPUT_BATCH_BYTES) this.flush();
  }

  /** Sends what is waiting (before a file-system call, a sleep, or the end). */
  flush(): void {
    if (this.chunks.length === 0) return;
    this.send({ type: 'output', id: this.runId, chunks: this.chunks });
    this.chunks = [];
    this.size = 0;
  }
}
