// What the model reads of a command's terminal output: no escape sequences, LF line ends, and each redrawn line
// (progress bars, spinners) only in its final state. The person's terminal keeps getting the raw stream.

import { AnsiStripper } from './ansi';
import { LineRedraw } from './line-redraw';

/** Turns a raw terminal stream into model text, chunk by chunk (an unfinished line is held until it ends). */
export class ModelTextFilter {
  private readonly stripper = new AnsiStripper({ carriageReturn: 'keep' });
  private readonly redraw = new LineRedraw();

  push(raw: string): string {
    return this.redraw.push(this.stripper.push(raw));
  }

  flush(): string {
    return this.redraw.push(this.stripper.flush()) + this.redraw.flush();
  }
}

/** The model text of a whole raw output. */
export function toModelText(raw: string): string {
  const filter = new ModelTextFilter();
  return filter.push(raw) + filter.flush();
}
