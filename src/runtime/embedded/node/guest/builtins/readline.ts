// `readline` inside the guest: the cursor helpers tools call on their output stream (Prettier's and ESLint's
// progress lines), and createInterface over a readable stream (process.stdin is the job's whole stdin, so lines
// arrive at once and 'close' follows).

import { eventsModule } from '../modules/packages';

type Output = { write(text: string): unknown } | undefined;
type Input = { on(event: string, listener: (...args: unknown[]) => void): unknown; setEncoding?(encoding: string): unknown } | undefined;

const ESC = '\u001b[';

function writeTo(stream: Output, text: string, callback?: unknown): boolean {
  stream?.write(text);
  if (typeof callback === 'function') queueMicrotask(() => (callback as () => void)());
  return true;
}

/** Builds the readline module. */
export function createReadline(): Record<string, unknown> {
  const { EventEmitter } = eventsModule();

  class Interface extends EventEmitter {
    closed = false;
    line = '';
    private prompt_ = '> ';
    private pending: string[] = [];
    private waiting: ((line: string) => void)[] = [];
    private readonly output: Output;

    constructor(input: Input, output: Output) {
      super();
      this.output = output;
      let rest = '';
      input?.setEncoding?.('utf8');
      input?.on('data', (chunk) => {
        const lines = (rest + String(chunk)).split(/\r?\n/);
        rest = lines.pop() ?? '';
        for (const line of lines) this.deliver(line);
      });
      input?.on('end', () => {
        if (rest) this.deliver(rest);
        rest = '';
        this.close();
      });
    }

    private deliver(line: string): void {
      const answer = this.waiting.shift();
      if (answer) answer(line);
      else if (this.listenerCount('line') > 0) this.emit('line', line);
      else this.pending.push(line);
    }

    setPrompt(prompt: string): void {
      this.prompt_ = prompt;
    }
    getPrompt(): string {
      return this.prompt_;
    }
    prompt(): void {
      this.output?.write(this.prompt_);
    }
    question(query: string, options?: unknown, callback?: unknown): void {
      const done = (typeof options === 'function' ? options : callback) as ((answer: string) => void) | undefined;
      this.output?.write(query);
      const queued = this.pending.shift();
      if (queued !== undefined) queueMicrotask(() => done?.(queued));
      else this.waiting.push((line) => done?.(line));
    }
    write(text: string): void {
      this.output?.write(text);
    }
    pause(): this {
      return this;
    }
    resume(): this {
      return this;
    }
    close(): void {
      if (this.closed) return;
      this.closed = true;
      this.emit('close');
    }
    async *[Symbol.asyncIterator](): AsyncGenerator<string> {
      for (;;) {
        const queued = this.pending.shift();
        if (queued !== undefined) {
          yield queued;
          continue;
        }
        if (this.closed) return;
        const line = await new Promise<string | undefined>((resolve) => {
          this.waiting.push(resolve);
          this.once('close', () => resolve(undefined));
        });
        if (line === undefined) return;
        yield line;
      }
    }
  }

  const createInterface = (input: unknown, output?: unknown) => {
    const options = input !== null && typeof input === 'object' && 'input' in input ? (input as { input: Input; output?: Output }) : { input: input as Input, output: output as Output };
    return new Interface(options.input, options.output);
  };
  return {
    Interface,
    createInterface,
    clearLine: (stream: Output, dir: number, callback?: unknown) => writeTo(stream, `${ESC}${dir < 0 ? 1 : dir > 0 ? 0 : 2}K`, callback),
    clearScreenDown: (stream: Output, callback?: unknown) => writeTo(stream, `${ESC}0J`, callback),
    cursorTo: (stream: Output, x: number, y?: unknown, callback?: unknown) =>
      writeTo(stream, typeof y === 'number' ? `${ESC}${y + 1};${x + 1}H` : `${ESC}${x + 1}G`, typeof y === 'function' ? y : callback),
    moveCursor: (stream: Output, dx: number, dy: number, callback?: unknown) => {
      let text = '';
      if (dx) text += `${ESC}${Math.abs(dx)}${dx < 0 ? 'D' : 'C'}`;
      if (dy) text += `${ESC}${Math.abs(dy)}${dy < 0 ? 'A' : 'B'}`;
      return writeTo(stream, text, callback);
    },
    emitKeypressEvents: () => undefined,
    promises: {
      Interface,
      createInterface: (input: unknown, output?: unknown) => {
        const rl = createInterface(input, output);
        return Object.assign(rl, { question: (query: string) => new Promise<string>((resolve) => Interface.prototype.question.call(rl, query, resolve)) });
      },
    },
  };
}
