// Syntax highlighting for finished code blocks, loaded on first use so highlight.js stays out of the initial bundle.
import type { HLJSApi } from 'highlight.js';

let loading: Promise<HLJSApi> | null = null;

function loadHighlighter(): Promise<HLJSApi> {
  loading ??= (async () => {
    const [core, ts, js, json, bash, css, xml, python, md, diff, yaml] = await Promise.all([
      import('highlight.js/lib/core'),
      import('highlight.js/lib/languages/typescript'),
      import('highlight.js/lib/languages/javascript'),
      import('highlight.js/lib/languages/json'),
      import('highlight.js/lib/languages/bash'),
      import('highlight.js/lib/languages/css'),
      import('highlight.js/lib/languages/xml'),
      import('highlight.js/lib/languages/python'),
      import('highlight.js/lib/languages/markdown'),
      import('highlight.js/lib/languages/diff'),
      import('highlight.js/lib/languages/yaml'),
    ]);
    const hljs = core.default;
    const languages = { typescript: ts, javascript: js, json, bash, css, xml, python, markdown: md, diff, yaml };
    for (const [name, lang] of Object.entries(languages)) hljs.registerLanguage(name, lang.default);
    hljs.registerAliases(['ts', 'tsx'], { languageName: 'typescript' });
    hljs.registerAliases(['js', 'jsx', 'mjs', 'cjs'], { languageName: 'javascript' });
    hljs.registerAliases(['sh', 'shell', 'zsh', 'console'], { languageName: 'bash' });
    hljs.registerAliases(['html', 'svg', 'svelte', 'vue'], { languageName: 'xml' });
    hljs.registerAliases(['py'], { languageName: 'python' });
    hljs.registerAliases(['md'], { languageName: 'markdown' });
    hljs.registerAliases(['yml'], { languageName: 'yaml' });
    return hljs;
  })();
  return loading;
}

/** Highlights the code blocks inside `root` that name a known language; unknown ones stay plain text. */
export async function highlightCodeBlocks(root: HTMLElement): Promise<void> {
  const blocks = root.querySelectorAll<HTMLElement>('pre code[class*="language-"]:not([data-highlighted])');
  if (blocks.length === 0) return;
  const hljs = await loadHighlighter();
  for (const block of blocks) {
    const lang = /language-([\w+-]+)/.exec(block.className)?.[1];
    if (!lang || !hljs.getLanguage(lang) || !root.isConnected) continue;
    // highlight() escapes the text it is given; the element's text is the code as the sanitizer left it.
    block.innerHTML = hljs.highlight(block.textContent ?? '', { language: lang, ignoreIllegals: true }).value;
    block.dataset.highlighted = 'yes';
  }
}
