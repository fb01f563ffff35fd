// The provider's own web search, with the Anthropic and the OpenAI (Responses) mocks, at both sizes: the per-session
// switch asks for the provider's tools, the search shows as a card with its sources and the citation as a link, and
// the next request carries the provider's server-tool blocks back exactly as the mock sent them.
import { ask, expect, openAndConfigure, snapshot, test, textTurn } from './fixtures';
import type { MockTurn } from './mock-provider/script';
import { anthropicWebToolBlocks, openAIWebSearchItem, type WebSearchBlock } from './mock-provider/wire-web-tools';

const SEARCH: WebSearchBlock = {
  type: 'webSearch', id: 'srv_e2e_1', query: 'svelte 5 runes',
  results: [{ url: 'https://svelte.dev/docs/svelte/what-are-runes', title: 'What are runes?' }, { url: 'https://svelte.dev/blog/runes', title: 'Introducing runes' }],
};
const ANSWER: MockTurn = { content: [
  SEARCH,
  { type: 'text', text: 'Runes are symbols that control the Svelte compiler.',
    citations: [{ url: 'https://svelte.dev/docs/svelte/what-are-runes', title: 'What are runes?', citedText: 'Runes are symbols' }] },
] };

const SIZES = [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
];

type Body = Record<string, unknown>;

for (const size of SIZES) {
  test.describe(size.name, () => {
    test.use({ viewport: size.viewport });

    test('Anthropic: web search card, citation link, and the blocks sent back unchanged', async ({ page, mock }) => {
      mock.setScript([ANSWER, textTurn('Glad to help.')]);
      await openAndConfigure(page, mock, { provider: 'anthropic' });
      const toggle = page.getByTestId('web-tools');
      await expect(toggle).toBeVisible();
      await expect(toggle).not.toBeChecked();
      await toggle.check();
      await ask(page, 'What are Svelte runes?');

      const card = page.locator('[data-testid="tool-call"][data-tool="web_search"]');
      await expect(card).toHaveAttribute('data-status', 'done', { timeout: 20_000 });
      await expect(card).toContainText('svelte 5 runes');
      await expect(card.getByRole('link', { name: 'What are runes?' })).toHaveAttribute('href', 'https://svelte.dev/docs/svelte/what-are-runes');
      await expect(card.getByTestId('web-source')).toHaveCount(2);
      const citation = page.getByTestId('citation');
      await expect(citation).toHaveAttribute('href', 'https://svelte.dev/docs/svelte/what-are-runes');
      await expect(citation).toContainText('What are runes?');
      await snapshot(page, `anthropic-web-search-${size.name}`);

      await ask(page, 'Thanks');
      await expect(page.getByText('Glad to help.')).toBeVisible({ timeout: 20_000 });
      const [first, second] = mock.requests.filter((r) => !r.summary).map((r) => r.body as Body);
      const tools = (first.tools as { type?: string; name: string }[]).filter((t) => t.type?.startsWith('web_'));
      expect(tools.map((t) => t.type)).toEqual(['web_search_20260318', 'web_fetch_20260318']);
      const reply = (second.messages as { role: string; content: Body[] }[])[1];
      expect(reply.role).toBe('assistant');
      expect(JSON.stringify(reply.content.slice(0, 2))).toBe(JSON.stringify(anthropicWebToolBlocks(SEARCH, 'srv_e2e_1')));
    });

    test('OpenAI Responses: web search card, citation link, and the web_search_call item sent back unchanged', async ({ page, mock }) => {
      mock.setScript([ANSWER, textTurn('Glad to help.')]);
      await openAndConfigure(page, mock, { provider: 'openai' });
      await page.getByTestId('web-tools').check();
      await ask(page, 'What are Svelte runes?');

      const card = page.locator('[data-testid="tool-call"][data-tool="web_search"]');
      await expect(card).toHaveAttribute('data-status', 'done', { timeout: 20_000 });
      await expect(card).toContainText('svelte 5 runes');
      await expect(card.getByTestId('web-source')).toHaveCount(2);
      await expect(page.getByTestId('citation')).toHaveAttribute('href', 'https://svelte.dev/docs/svelte/what-are-runes');

      await ask(page, 'Thanks');
      await expect(page.getByText('Glad to help.')).toBeVisible({ timeout: 20_000 });
      const [first, second] = mock.requests.filter((r) => !r.summary).map((r) => r.body as Body);
      expect((first.tools as { type: string }[]).map((t) => t.type)).toContain('web_search');
      const item = (second.input as Body[]).find((i) => i.type === 'web_search_call');
      expect(JSON.stringify(item)).toBe(JSON.stringify(openAIWebSearchItem(SEARCH, 'srv_e2e_1')));
    });
  });
}

test('the switch is per session, kept on reload, and off for a model without web tools', async ({ page, mock }) => {
  mock.setScript([textTurn('Hello.')]);
  await openAndConfigure(page, mock, { provider: 'anthropic' });
  await page.getByTestId('web-tools').check();
  await ask(page, 'hi');
  await expect(page.getByText('Hello.')).toBeVisible({ timeout: 20_000 });
  await page.reload();
  await expect(page.getByTestId('runtime-status')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  await expect(page.getByTestId('web-tools')).toBeChecked();

  await openAndConfigure(page, mock, { provider: 'openai-compatible' });
  await expect(page.getByTestId('web-tools')).toHaveCount(0);
});
