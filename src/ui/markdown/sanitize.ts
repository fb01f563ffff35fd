// Model output is untrusted: what it renders may never run script, load anything from the network without a
// click, or reach the page's data. DOMPurify removes script and handlers; the hooks below turn images into plain
// links and make every link open in a new, unrelated tab.
import DOMPurify from 'dompurify';

let configured = false;

function configure(): void {
  if (configured) return;
  configured = true;
  DOMPurify.addHook('uponSanitizeElement', (node, data) => {
    if (data.tagName !== 'img' || !(node instanceof Element)) return;
    // A remote image would load silently (and could carry data out in its URL): show a link instead.
    const src = node.getAttribute('src') ?? '';
    const alt = node.getAttribute('alt') || 'image';
    const link = node.ownerDocument.createElement('a');
    link.textContent = `[${alt}]`;
    if (/^https?:/i.test(src)) link.setAttribute('href', src);
    link.setAttribute('title', src ? `Image not loaded: ${src}` : 'Image not loaded');
    node.replaceWith(link);
  });
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A' && node.hasAttribute('href')) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    }
  });
}

/** Safe HTML for model-written Markdown. */
export function sanitizeHtml(html: string): string {
  configure();
  return DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed', 'video', 'audio', 'source', 'picture', 'link', 'meta', 'base'],
    FORBID_ATTR: ['style', 'srcset', 'background', 'poster', 'formaction'],
    ADD_ATTR: ['target'],
  });
}
