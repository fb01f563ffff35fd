import { describe, expect, it } from 'vitest';
import type { Message } from '../../ai/types';
import { exportSessionHtml } from './html-export';
import { assistant, call, result, searchedReply } from '../testing/messages';

const payloads = ['<script>alert(1)</script>', '<img src=x onerror=alert(1)>', '"><svg onload=alert(1)>', "' onmouseover='x"];

describe('exportSessionHtml', () => {
  it('escapes everything from the session: text, tool names and args, results, title, file names', () => {
    const [p1, p2, p3, p4] = payloads;
    const messages: Message[] = [
      { role: 'user', content: `please ${p1}`, timestamp: 1 },
      assistant([{ type: 'thinking', thinking: p2 }, { type: 'text', text: p3 }, call('c1', p4, { path: p1, content: p2 })]),
      result('c1', p2, p1),
      { ...assistant('x'), errorMessage: p1, model: p2 },
      { role: 'user', content: [{ type: 'image', mimeType: 'image/svg+xml', data: 'PHN2Zz4=' }, { type: 'image', mimeType: 'image/png', data: '"><script>' }], timestamp: 1 },
    ];
    const html = exportSessionHtml({ title: p1, createdAt: 0, model: p3, provider: p4 }, messages, { files: [p2, `src/${p1}.ts`] });
    // Only the renderer's own tags exist (and the timeline's one script), none with an event handler or a quote-broken attribute.
    expect(html.match(/<script/gi)).toHaveLength(1);
    const tags = [...html.replace(/<script>[\s\S]*?<\/script>/, '').matchAll(/<([a-zA-Z][\w-]*)([^>]*)>/g)];
    const allowed = new Set(['html', 'head', 'meta', 'title', 'style', 'body', 'header', 'h1', 'h2', 'p', 'main', 'section', 'pre', 'details', 'summary', 'div', 'span', 'img', 'ul', 'li']);
    for (const [, name, attributes] of tags) {
      expect(allowed.has(name.toLowerCase()), `unexpected <${name}>`).toBe(true);
      expect(attributes).not.toMatch(/\son\w+\s*=/i);
    }
    expect(tags.filter(([, name]) => name === 'img')).toHaveLength(0);
    expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(html).toContain('[image omitted: unsupported type image/svg+xml]');
    expect(html).toContain('[image omitted: unsupported type image/png]');
  });

  it('needs no network, and no script but the timeline', () => {
    const html = exportSessionHtml({ title: 'T', createdAt: 0, model: 'm', provider: 'p' }, [
      { role: 'user', content: 'see https://example.com/x.png', timestamp: 1 },
      { role: 'user', content: [{ type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' }], timestamp: 1 },
    ]);
    expect(html).toContain(`default-src 'none'`);
    const withoutText = html.replace(/<pre[^>]*>[\s\S]*?<\/pre>/g, '').replace(/<script>[\s\S]*?<\/script>/, '');
    expect(withoutText).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(withoutText).not.toMatch(/<script|<link|@import|url\(/i);
    expect(html).toContain('<img alt="attached image" src="data:image/png;base64,iVBORw0KGgo=">');
  });

  it('renders each message with its role', () => {
    const html = exportSessionHtml({ title: 'T', createdAt: 0, model: 'm', provider: 'p' }, [
      { role: 'user', content: 'hi', timestamp: 1 },
      assistant('hello'),
      result('c', 'out'),
    ]);
    expect(html.match(/data-role="(\w+)"/g)).toEqual(['data-role="user"', 'data-role="assistant"', 'data-role="toolResult"']);
  });
});

describe('compactions in the HTML export', () => {
  it('shows each as a divider where it was made, its summary escaped and expandable', () => {
    const messages: Message[] = [{ role: 'user', content: 'one', timestamp: 1 }, assistant('two'), { role: 'user', content: 'three', timestamp: 1 }];
    const compaction = {
      type: 'compaction' as const, summary: '## Goal\n<b>ship</b>', firstKeptSeq: 1, atSeq: 2, tokensBefore: 182_400, tokensAfter: 24_100,
      readFiles: [], modifiedFiles: [], timestamp: 3,
    };
    const html = exportSessionHtml({ title: 'T', createdAt: 0, model: 'm', provider: 'p' }, messages, { compactions: [compaction] });
    const order = [...html.matchAll(/data-role="(\w+)"/g)].map((m) => m[1]);
    expect(order).toEqual(['user', 'assistant', 'compaction', 'user']);
    expect(html).toContain('<summary>Context compacted: 182k → 24k tokens</summary><pre class="text">## Goal\n&#60;b&#62;ship&#60;/b&#62;</pre>');
  });

  it("shows the provider's searches as cards with their sources, and citations as links (http only, escaped)", () => {
    const reply = searchedReply('<b>runes</b>', 'https://svelte.dev/docs/runes?a=1&b="2"');
    const hostile = { ...searchedReply(), content: [{ type: 'text' as const, text: 't', citations: [{ url: 'javascript:alert(1)', title: '<i>x</i>' }] }] };
    const html = exportSessionHtml({ title: 't', createdAt: 0, model: 'm', provider: 'p' }, [reply, hostile]);
    expect(html).toContain('data-tool="web_search"');
    expect(html).toContain('Search the web: &#60;b&#62;runes&#60;/b&#62;');
    expect(html).toContain('<a href="https://svelte.dev/docs/runes?a=1&#38;b=&#34;2&#34;" rel="noreferrer noopener">Runes</a>');
    expect(html).not.toContain('href="javascript');
    expect(html).toContain('Sources: &#60;i&#62;x&#60;/i&#62;');
  });
});
