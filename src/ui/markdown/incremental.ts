// Incremental Markdown: a streamed answer is split into top-level blocks; a block is parsed and sanitized once,
// when the block after it has started, and its HTML is cached. Only the last, still-growing block is parsed again
// on each update, so the cost of a delta depends on the size of that block, not of the whole answer.
import { Lexer, Parser, type MarkedOptions, type Token, type TokensList } from 'marked';

export type RenderedBlock = { id: number; html: string };
export type RenderedMarkdown = { blocks: RenderedBlock[]; tail: string };

export type IncrementalOptions = {
  sanitize(html: string): string;
  markedOptions?: MarkedOptions;
};

/** Parsed Markdown of one growing text; feed it the whole text each time, get cached blocks plus the fresh tail. */
export class IncrementalMarkdown {
  private consumed = '';
  private blocks: RenderedBlock[] = [];
  private nextId = 0;
  /** How many top-level blocks have been parsed so far (for tests and benchmarks). */
  parsedBlocks = 0;

  constructor(private readonly options: IncrementalOptions) {}

  update(rawText: string): RenderedMarkdown {
    const text = rawText.includes('\r') ? rawText.replace(/\r\n?/g, '\n') : rawText;
    if (!text.startsWith(this.consumed)) this.reset();

    const tail = text.slice(this.consumed.length);
    const tokens = this.lex(tail);
    let lastContent = tokens.length - 1;
    while (lastContent >= 0 && tokens[lastContent].type === 'space') lastContent--;

    // Every block before the last one with content is finished: the lexer has already seen where it ends.
    let finishedRaw = '';
    const finished: Token[] = [];
    for (let i = 0; i < lastContent; i++) {
      finished.push(tokens[i]);
      finishedRaw += tokens[i].raw;
    }
    if (finished.length > 0 && tail.startsWith(finishedRaw)) {
      for (const token of finished) {
        if (token.type === 'space') continue;
        this.blocks.push({ id: this.nextId++, html: this.render([token]) });
      }
      this.consumed += finishedRaw;
      return { blocks: this.blocks.slice(), tail: this.render(tokens.slice(finished.length)) };
    }
    return { blocks: this.blocks.slice(), tail: this.render(tokens) };
  }

  private reset(): void {
    this.consumed = '';
    this.blocks = [];
  }

  private lex(src: string): Token[] {
    return src === '' ? [] : Lexer.lex(src, { gfm: true, ...this.options.markedOptions });
  }

  private render(tokens: Token[]): string {
    const content = tokens.filter((t) => t.type !== 'space');
    if (content.length === 0) return '';
    this.parsedBlocks += content.length;
    const list: TokensList = Object.assign(content, { links: {} });
    return this.options.sanitize(Parser.parse(list, { gfm: true, ...this.options.markedOptions }));
  }
}
