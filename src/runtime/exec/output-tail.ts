// A command's output kept for its ExecResult: only the last OUTPUT_TAIL_CHARS characters, so a 100 MB flood never
// sits in memory whole. Every chunk still reaches `onOutput` as it comes (the bash tool spills it to a file).

/** How much of a command's output `ExecResult.output` keeps (its end); about 1 MB of ASCII. */
export const OUTPUT_TAIL_CHARS = 1_000_000;

/** Accumulates text, dropping the oldest characters beyond `maxChars`. */
export class OutputTail {
  private chunks: string[] = [];
  private kept = 0;
  private dropped = 0;

  constructor(private readonly maxChars = OUTPUT_TAIL_CHARS) {}

  push(chunk: string): void {
    if (chunk === '') return;
    this.chunks.push(chunk);
    this.kept += chunk.length;
    if (this.kept > this.maxChars * 2) this.compact();
  }

  /** The kept tail, starting with a note saying how much was cut when anything was. */
  text(): string {
    this.compact();
    const tail = this.chunks.join('');
    if (this.dropped === 0) return tail;
    return `[output cut: the first ${this.dropped} characters are not kept here; the last ${tail.length} follow]\n${tail}`;
  }

  private compact(): void {
    if (this.kept <= this.maxChars) return;
    let joined = this.chunks.join('');
    let cut = joined.length - this.maxChars;
    // Never split a surrogate pair: a lone half would become U+FFFD.
    const code = joined.charCodeAt(cut);
    if (code >= 0xdc00 && code <= 0xdfff) cut += 1;
    this.dropped += cut;
    joined = joined.slice(cut);
    this.chunks = [joined];
    this.kept = joined.length;
  }
}
