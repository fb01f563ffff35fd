// A read-only, self-contained HTML rendering of a session: no script, no network (a CSP forbids both), and every
// piece of session content escaped, since transcripts carry whatever the model, the tools and the repo produced.
import type { CompactionEntry, ImageContent, Message, TextContent } from '../ai/types';

export type HtmlSessionInfo = { title: string; createdAt: number; model: string; provider: string };

const SAFE_IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/**
 * The whole HTML document. `files` (optional) lists the workspace's paths at the end; each of `compactions` shows as
 * a divider where it was made, its summary expandable.
 */
export function exportSessionHtml(
  session: HtmlSessionInfo,
  messages: Message[],
  options: { files?: string[]; compactions?: CompactionEntry[] } = {},
): string {
  const title = session.title || 'Conch session';
  const parts = messages.map(renderMessage);
  for (const compaction of [...(options.compactions ?? [])].reverse()) {
    parts.splice(Math.min(compaction.atSeq, parts.length), 0, renderCompaction(compaction));
  }
  const body = parts.join('\n');
  const files = options.files?.length
    ? `<section class="files"><h2>Workspace files (${options.files.length})</h2><ul>${options.files.map((f) => `<li>${escapeHtml(f)}</li>`).join('')}</ul></section>`
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header><h1>${escapeHtml(title)}</h1>
<p class="meta">${escapeHtml(session.provider)} · ${escapeHtml(session.model)} · ${escapeHtml(formatDate(session.createdAt))} · ${messages.length} messages · exported from Conch, read-only</p></header>
<main>
${body}
</main>
${files}
</body>
</html>
`;
}

function renderMessage(message: Message): string {
  switch (message.role) {
    case 'user': {
      const blocks = typeof message.content === 'string' ? [{ type: 'text' as const, text: message.content }] : message.content;
      return `<section class="msg user" data-role="user"><h2>You</h2>${blocks.map(renderBlock).join('')}</section>`;
    }
    case 'assistant': {
      const blocks = message.content.map((block) => {
        switch (block.type) {
          case 'text':
            return renderBlock(block);
          case 'thinking':
            return `<details class="thinking"><summary>Thinking</summary><pre>${escapeHtml(block.thinking)}</pre></details>`;
          case 'toolCall':
            return `<div class="tool-call"><div class="tool-name">${escapeHtml(block.name)}</div><pre>${escapeHtml(JSON.stringify(block.arguments, null, 2) ?? '')}</pre></div>`;
          default:
            return assertNever(block);
        }
      });
      const error = message.errorMessage ? `<p class="error">${escapeHtml(message.errorMessage)}</p>` : '';
      return `<section class="msg assistant" data-role="assistant"><h2>Assistant <span class="meta">${escapeHtml(message.model)}</span></h2>${blocks.join('')}${error}</section>`;
    }
    case 'toolResult':
      return `<section class="msg tool-result${message.isError ? ' error' : ''}" data-role="toolResult"><details><summary>${escapeHtml(message.toolName)} result${message.isError ? ' (error)' : ''}</summary>${message.content.map(renderBlock).join('')}</details></section>`;
    default:
      return assertNever(message);
  }
}

function renderCompaction(compaction: CompactionEntry): string {
  const tokens = (n: number) => (n >= 1000 ? `${Math.round(n / 1000)}k` : String(n));
  return `<section class="compaction" data-role="compaction"><details><summary>Context compacted: ${tokens(compaction.tokensBefore)} → ${tokens(compaction.tokensAfter)} tokens</summary><pre class="text">${escapeHtml(compaction.summary)}</pre></details></section>`;
}

function renderBlock(block: TextContent | ImageContent): string {
  if (block.type === 'text') return `<pre class="text">${escapeHtml(block.text)}</pre>`;
  if (SAFE_IMAGE_TYPES.has(block.mimeType) && /^[A-Za-z0-9+/]*={0,2}$/.test(block.data)) {
    return `<img alt="attached image" src="data:${block.mimeType};base64,${block.data}">`;
  }
  return `<p class="meta">[image omitted: unsupported type ${escapeHtml(block.mimeType)}]</p>`;
}

/** Escapes the five HTML-significant characters, for both text and attribute positions. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

function formatDate(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
}

function assertNever(value: never): never {
  throw new Error(`Unexpected session content: ${JSON.stringify(value)}`);
}

const STYLE = `
body{font:15px/1.5 system-ui,sans-serif;max-width:960px;margin:0 auto;padding:1rem;color:#1d1d1f;background:#fafafa}
h1{font-size:1.4rem;margin:.2rem 0}h2{font-size:.85rem;margin:0 0 .3rem;text-transform:uppercase;letter-spacing:.04em;color:#555}
.meta{color:#777;font-size:.85rem;text-transform:none;letter-spacing:0}
.msg{background:#fff;border:1px solid #e3e3e3;border-radius:8px;padding:.6rem .8rem;margin:.6rem 0}
.user{border-left:4px solid #3b82f6}.assistant{border-left:4px solid #10b981}.tool-result{border-left:4px solid #a3a3a3}
.error{border-left-color:#ef4444;color:#b91c1c}
pre{white-space:pre-wrap;word-break:break-word;margin:.3rem 0;font:13px/1.45 ui-monospace,monospace}
pre.text{font:inherit}
.compaction{border-top:1px dashed #a3a3a3;border-bottom:1px dashed #a3a3a3;margin:1rem 0;padding:.3rem 0;text-align:center}
.tool-call{background:#f4f4f5;border-radius:6px;padding:.3rem .6rem;margin:.3rem 0}.tool-name{font-weight:600;font-family:ui-monospace,monospace}
img{max-width:100%}summary{cursor:pointer;color:#555}
@media (prefers-color-scheme:dark){body{background:#111;color:#e5e5e5}.msg{background:#1a1a1a;border-color:#333}.tool-call{background:#222}}
`;
