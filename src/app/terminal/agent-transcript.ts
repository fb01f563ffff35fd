// The read-only "agent" view: each agent command as `$ command` and its output, appended as the list grows.

import { toTerminalLineEnds } from './line-shell';

export type TranscriptCommand = {
  id: string;
  command: string;
  output: string;
  status: 'running' | 'done' | 'error';
};

export type TranscriptSink = {
  write(data: string): void;
  /** Clears the terminal, for the rare update that is not an append (a command's output shrank, a reorder). */
  reset(): void;
};

const BOLD = '\x1b[1m';
const RED = '\x1b[31m';
// Grey (bright black) rather than dim: xterm draws dim text at half opacity, too faint to read (WCAG contrast).
const DIM = '\x1b[90m';
const RESET = '\x1b[0m';

type Written = { id: string; command: string; outputLength: number; finished: boolean };

/** Writes only what changed since the last `update`; rewrites everything when the change is not an append. */
export class AgentTranscript {
  private written: Written[] = [];
  private endsWithNewline = true;

  constructor(private readonly sink: TranscriptSink) {}

  update(commands: readonly TranscriptCommand[]): void {
    if (!this.isAppendOf(commands)) {
      this.sink.reset();
      this.written = [];
      this.endsWithNewline = true;
    }
    commands.forEach((command, index) => this.writeCommand(command, index));
  }

  // Appending works while only the last written command grows; parallel commands interleave otherwise.
  private isAppendOf(commands: readonly TranscriptCommand[]): boolean {
    if (commands.length < this.written.length) return false;
    return this.written.every((entry, index) => {
      const command = commands[index];
      if (command.id !== entry.id || command.command !== entry.command) return false;
      if (command.output.length < entry.outputLength) return false;
      const isLast = index === this.written.length - 1;
      const changed = command.output.length > entry.outputLength || (command.status !== 'running') !== entry.finished;
      return isLast || !changed;
    });
  }

  private writeCommand(command: TranscriptCommand, index: number): void {
    let entry = this.written[index];
    if (!entry) {
      if (!this.endsWithNewline) this.emit('\r\n');
      if (index > 0) this.emit('\r\n');
      this.emit(`${BOLD}$ ${command.command}${RESET}\r\n`);
      entry = { id: command.id, command: command.command, outputLength: 0, finished: false };
      this.written.push(entry);
    }
    if (command.output.length > entry.outputLength) {
      this.emit(toTerminalLineEnds(command.output.slice(entry.outputLength)));
      entry.outputLength = command.output.length;
    }
    if (!entry.finished && command.status !== 'running') {
      entry.finished = true;
      if (!this.endsWithNewline) this.emit('\r\n');
      if (command.status === 'error') this.emit(`${RED}✗ failed${RESET}\r\n`);
      else this.emit(`${DIM}✓ done${RESET}\r\n`);
    }
  }

  private emit(data: string): void {
    if (data === '') return;
    this.endsWithNewline = data.endsWith('\n');
    this.sink.write(data);
  }
}
