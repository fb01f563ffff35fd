// ChildProcess: what spawn returns. The child starts on the host at the loop's next turn, with what the parent wrote
// to its stdin by then (or, once the parent has started writing, when it ends stdin): the shell takes a child's
// stdin whole. A `node` child's stdout and stderr arrive as it prints; another command's when it ends (the shell
// gives a command's output at its end). Then 'exit' and, once the streams have ended, 'close'.

import { host } from '../host';
import { nodeError } from '../node-error';
import { bufferModule, eventsModule, streamModule } from '../modules/packages';
import { timers } from '../globals/timers';
import { awaitChild, type ChildEnd } from './children-loop';
import { spawnError } from './child-errors';
import { signalOption, type Prepared } from './spawn-options';

type Readable = import('stream').Readable;
type Writable = import('stream').Writable;

/** Builds the ChildProcess class over the guest's events and streams (loaded when child_process is first required). */
export function childProcessClass() {
  const { EventEmitter } = eventsModule();
  const { Readable, Writable } = streamModule();
  const Buffer = bufferModule().Buffer;

  class ChildProcess extends EventEmitter {
    pid: number | undefined;
    exitCode: number | null = null;
    signalCode: string | null = null;
    killed = false;
    connected = false;
    readonly spawnfile: string;
    readonly spawnargs: string[];
    readonly stdin: Writable | null;
    readonly stdout: Readable | null;
    readonly stderr: Readable | null;
    readonly stdio: [Writable | null, Readable | null, Readable | null];
    private readonly input: string[] = [];
    private inputStarted = false;
    private inputEnded = false;
    private state: 'pending' | 'running' | 'ended' = 'pending';
    private refed = true;
    private pendingKill: string | undefined;

    constructor(private readonly prepared: Prepared) {
      super();
      this.spawnfile = prepared.file;
      this.spawnargs = prepared.spawnargs;
      const [stdin, stdout, stderr] = prepared.stdio;
      this.stdin = stdin === 'pipe' ? this.inputStream() : null;
      this.stdout = stdout === 'pipe' ? new Readable({ read() {} }) : null;
      this.stderr = stderr === 'pipe' ? new Readable({ read() {} }) : null;
      this.stdio = [this.stdin, this.stdout, this.stderr];
      timers.setImmediate(() => this.startWhenInputReady());
    }

    /** Sends `signal` (default SIGTERM); false when the child has already ended. */
    kill(signal?: unknown): boolean {
      const name = signalOption(signal);
      if (this.state === 'ended') return false;
      this.killed = true;
      if (this.state === 'pending') {
        this.pendingKill = name;
        return true;
      }
      return JSON.parse(host.fs('proc.kill', JSON.stringify([this.pid, name])) as string) as boolean;
    }

    ref(): void {
      this.refed = true;
    }

    unref(): void {
      this.refed = false;
    }

    send(): boolean {
      throw nodeError(Error, 'ERR_CONCH_UNAVAILABLE', "The IPC channel (child.send, process.send) is not available in Conch's embedded runtime: pass data through stdin and stdout, or use the WebContainer runtime");
    }

    disconnect(): void {}

    private inputStream(): Writable {
      const stream = new Writable({
        write: (chunk: unknown, _encoding: unknown, callback: (error?: Error | null) => void) => {
          if (this.state === 'pending') this.input.push(Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk));
          callback();
        },
      });
      const write = stream.write.bind(stream);
      const end = stream.end.bind(stream);
      stream.write = ((...args: Parameters<Writable['write']>) => {
        this.inputStarted = true;
        return write(...args);
      }) as Writable['write'];
      stream.end = ((...args: Parameters<Writable['end']>) => {
        const result = end(...args);
        this.inputEnded = true;
        if (this.inputStarted) timers.setImmediate(() => this.startWhenInputReady());
        return result;
      }) as Writable['end'];
      return stream;
    }

    private startWhenInputReady(): void {
      if (this.state !== 'pending') return;
      if (this.inputStarted && !this.inputEnded && this.pendingKill === undefined) return; // started when stdin ends
      const { spec, file, spawnargs, cwdMissing } = this.prepared;
      if (this.pendingKill !== undefined) {
        this.finish({ id: 0, kind: 'end', stdout: '', stderr: '', exitCode: null, signal: this.pendingKill });
        return;
      }
      if (cwdMissing) {
        this.fail(spawnError('spawn', spec.args === null ? '/bin/sh' : file, spawnargs));
        return;
      }
      spec.stdin += this.input.join('');
      const { id, pid } = JSON.parse(host.fs('proc.spawn', JSON.stringify([spec])) as string) as { id: number; pid: number };
      this.pid = pid;
      this.state = 'running';
      const child = this;
      awaitChild(id, {
        get refed() {
          return child.refed;
        },
        output: (fd, text) => this.deliver(fd, text),
        settle: (end) => this.finish(end),
      });
      this.emit('spawn');
    }

    private fail(error: Error): void {
      this.state = 'ended';
      this.exitCode = -2;
      this.emit('error', error);
      this.endStreams('', '');
      this.emit('close', -2, null);
    }

    /** Output while the child runs: into its stream, or the parent's own when inherited. */
    private deliver(fd: 1 | 2, text: string): void {
      const mode = this.prepared.stdio[fd];
      const stream = fd === 1 ? this.stdout : this.stderr;
      if (mode === 'inherit') host.write(fd, text);
      else if (stream && text !== '') stream.push(Buffer.from(text));
    }

    private finish(event: ChildEnd): void {
      if (event.error?.code === 'ENOENT') {
        this.fail(spawnError('spawn', this.prepared.file, this.spawnargs));
        return;
      }
      this.state = 'ended';
      this.exitCode = event.exitCode;
      this.signalCode = event.signal;
      const [, out, err] = this.prepared.stdio;
      if (out === 'inherit') host.write(1, event.stdout);
      if (err === 'inherit') host.write(2, event.stderr);
      this.endStreams(event.stdout, event.stderr);
      this.emit('exit', event.exitCode, event.signal);
      const open = [this.stdout, this.stderr].filter((stream): stream is Readable => stream !== null && !stream.readableEnded);
      let remaining = open.length;
      if (remaining === 0) timers.setImmediate(() => this.emit('close', event.exitCode, event.signal));
      for (const stream of open) {
        stream.once('end', () => {
          if (--remaining === 0) this.emit('close', event.exitCode, event.signal);
        });
        // Node drains a child's output no one reads, so that 'close' still comes.
        timers.setImmediate(() => {
          if (stream.readableFlowing === null && stream.listenerCount('readable') === 0) stream.resume();
        });
      }
    }

    private endStreams(stdout: string, stderr: string): void {
      if (this.stdout) {
        if (stdout !== '') this.stdout.push(Buffer.from(stdout));
        this.stdout.push(null);
      }
      if (this.stderr) {
        if (stderr !== '') this.stderr.push(Buffer.from(stderr));
        this.stderr.push(null);
      }
    }
  }
  return ChildProcess;
}

export type ChildProcess = InstanceType<ReturnType<typeof childProcessClass>>;
