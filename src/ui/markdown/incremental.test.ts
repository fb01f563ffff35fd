import { marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { IncrementalMarkdown } from './incremental';

const identity = (html: string) => html;
const joined = (r: { blocks: { html: string }[]; tail: string }) => r.blocks.map((b) => b.html).join('') + r.tail;

const sample = [
  '# Plan\n\nFirst I will **read** the file.\n\n',
  '- one\n- two\n\n',
  '```ts\nconst x = 1;\n```\n\n',
  '| a | b |\n|---|---|\n| 1 | 2 |\n\n',
  'Done, see `x`.',
].join('');

describe('IncrementalMarkdown', () => {
  it('renders the same HTML as parsing the whole text, at every prefix', () => {
    const md = new IncrementalMarkdown({ sanitize: identity });
    for (let i = 1; i <= sample.length; i += 3) {
      const prefix = sample.slice(0, i);
      expect(joined(md.update(prefix)).replace(/\n/g, '')).toBe((marked.parse(prefix, { async: false }) as string).replace(/\n/g, ''));
    }
  });

  it('parses each finished block once: work per delta stays flat as the answer grows', () => {
    const md = new IncrementalMarkdown({ sanitize: identity });
    const paragraph = 'Some words in a paragraph that keeps the parser busy. '.repeat(4) + '\n\n';
    let text = '';
    const costs: number[] = [];
    for (let i = 0; i < 400; i++) {
      text += paragraph;
      const before = md.parsedBlocks;
      md.update(text + 'partial');
      costs.push(md.parsedBlocks - before);
    }
    // One newly finished block plus the growing tail per update, never the whole history.
    expect(Math.max(...costs.slice(1))).toBeLessThanOrEqual(2);
    expect(md.update(text).blocks.length).toBeGreaterThanOrEqual(399);
  });

  it('keeps block ids stable while streaming and starts over when the text is replaced', () => {
    const md = new IncrementalMarkdown({ sanitize: identity });
    const first = md.update('para one\n\npara two\n\nthree');
    const ids = first.blocks.map((b) => b.id);
    const later = md.update('para one\n\npara two\n\nthree and more');
    expect(later.blocks.map((b) => b.id)).toEqual(ids);
    const replaced = md.update('something else');
    expect(replaced.blocks).toHaveLength(0);
    expect(replaced.tail).toContain('something else');
  });

  it('passes every rendered piece through the sanitizer', () => {
    const seen: string[] = [];
    const md = new IncrementalMarkdown({ sanitize: (h) => (seen.push(h), h.replace(/<script.*?<\/script>/g, '')) });
    const r = md.update('<script>alert(1)</script>\n\ntext');
    expect(joined(r)).not.toContain('<script');
    expect(seen.length).toBeGreaterThan(0);
  });
});
