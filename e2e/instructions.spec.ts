// A repo's instructions for coding agents, as they reach the wire: the root AGENTS.md in the system prompt, a nested
// src/api/AGENTS.md listed there by path only, and its text in the tool result of the first read under src/api/
// (and not again on the second); the sandbox details list both files.
import { zipSync } from 'fflate';
import { ask, callTurn, expect, openAndConfigure, test, textTurn } from './fixtures';

const FILES: Record<string, string> = {
  'AGENTS.md': '# Working here\n\nRun npm test before you say you are done.\n',
  'src/api/AGENTS.md': 'Every API handler validates its input with zod.\n',
  'src/api/users.js': 'exports.users = [];\n',
  'src/api/health.js': 'exports.ok = true;\n',
  'README.md': '# Service\n',
};

/** A GitHub-style download (one top folder, no .git). */
function repoZip(): Buffer {
  const entries: Record<string, Uint8Array> = {};
  for (const [path, text] of Object.entries(FILES)) entries[`service-main/${path}`] = new TextEncoder().encode(text);
  return Buffer.from(zipSync(entries));
}

type ChatBody = { messages: { role: string; content: unknown }[] };
const textOf = (content: unknown) => (typeof content === 'string' ? content : JSON.stringify(content));
const systemOf = (body: ChatBody) => textOf(body.messages.find((m) => m.role === 'system')?.content);
const toolResults = (body: ChatBody) => body.messages.filter((m) => m.role === 'tool').map((m) => textOf(m.content));

const SIZES = [
  { name: 'desktop', use: { viewport: { width: 1280, height: 800 } } },
  { name: 'phone', use: { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true } },
];

for (const size of SIZES) {
  test.describe(size.name, () => {
    test.use(size.use);

    test('the root instructions go in the system prompt, the nested ones come once with the first read under their folder', async ({ page, mock }) => {
      await openAndConfigure(page, mock);
      await page.getByTestId('import-zip').setInputFiles({ name: 'service-main.zip', mimeType: 'application/zip', buffer: repoZip() });
      await expect(page.getByTestId('import-result')).toContainText('5 files');

      mock.setScript([
        callTurn('read', { path: 'src/api/users.js' }),
        callTurn('read', { path: 'src/api/health.js' }),
        textTurn('Both handlers are tiny.'),
      ]);
      await ask(page, 'Look at the API handlers');
      await expect(page.locator('[data-testid="message"][data-role="assistant"]').last()).toContainText('Both handlers are tiny.', { timeout: 30_000 });

      const [first, afterFirstRead, afterSecondRead] = mock.requests.filter((r) => !r.summary).map((r) => r.body as ChatBody);
      const system = systemOf(first);
      expect(system).toContain('Run npm test before you say you are done.');
      expect(system).toContain('src/api/AGENTS.md');
      expect(system).not.toContain('validates its input with zod');

      const [usersResult] = toolResults(afterFirstRead);
      expect(usersResult).toContain('exports.users');
      expect(usersResult).toContain('Instructions for src/api/ (from src/api/AGENTS.md):');
      expect(usersResult).toContain('Every API handler validates its input with zod.');
      const healthResult = toolResults(afterSecondRead)[1];
      expect(healthResult).toContain('exports.ok');
      expect(healthResult).not.toContain('validates its input with zod');

      await page.getByTestId('runtime-status').getByRole('button').first().click();
      const sources = page.getByTestId('instructions-sources').locator('[data-path]');
      await expect(sources).toHaveCount(2);
      await expect(sources.nth(0)).toHaveAttribute('data-path', 'AGENTS.md');
      await expect(sources.nth(1)).toHaveAttribute('data-path', 'src/api/AGENTS.md');
    });
  });
}
