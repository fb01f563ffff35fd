// fs's streams: a read stream hands over the whole file in one chunk, a write stream appends each chunk to the file
// on the host as it is written.

import { streamModule } from '../modules/packages';
import type { HostCalls } from './host-calls';

type Buffer = import('buffer').Buffer;

/** fs.createReadStream and fs.createWriteStream; `readBytes` reads a whole path or fd. */
export function createStreams(io: HostCalls, readBytes: (target: unknown) => Buffer) {
  const { resolve, call, encodingOf, toBytes } = io;
  const createReadStream = (given: unknown, options?: unknown) => {
    const { Readable } = streamModule();
    const encoding = encodingOf(options);
    let done = false;
    return new Readable({
      encoding,
      read(this: { push(chunk: unknown): void; destroy(error: Error): void }) {
        if (done) return;
        done = true;
        try {
          this.push(readBytes(given));
          this.push(null);
        } catch (error) {
          this.destroy(error as Error);
        }
      },
    });
  };
  const createWriteStream = (given: unknown, options?: { flags?: string }) => {
    const { Writable } = streamModule();
    const absolute = resolve(given);
    call('writeFile', [absolute, options?.flags?.startsWith('a') ? 'a' : 'w'], new Uint8Array(0));
    const stream = new Writable({
      write(chunk: unknown, _encoding: unknown, callback: (error?: Error | null) => void) {
        try {
          call('writeFile', [absolute, 'a'], toBytes(chunk));
          callback();
        } catch (error) {
          callback(error as Error);
        }
      },
    });
    return Object.assign(stream, { path: absolute });
  };
  return { createReadStream, createWriteStream };
}
