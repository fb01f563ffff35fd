// Skills and command templates, at both sizes: a repo carrying two skills (one invalid) and a command template is
// imported; the request's system prompt lists the valid skill (name, description, path) but not its body nor the
// invalid one; Settings → Skills shows both; `/skill:<name>` and a template send their expansion while the
// transcript shows what was typed (also after a reload); a skill of the person's own, imported from a zip in
// Settings, is offered in a new session and readable at /skills/<name>/SKILL.md.
import { zipSync } from 'fflate';
import type { Page } from '@playwright/test';
import { callTurn, expect, openAndConfigure, test, textTurn } from './fixtures';
import type { MockProvider } from './mock-provider/server';

const encode = (text: string) => new TextEncoder().encode(text);
const DEPLOY = '---\nname: deploy\ndescription: "Use when: shipping the app to staging"\n---\nDEPLOY-BODY: run npm run build, then upload dist/.\n';
const BROKEN = '---\ndescription: A skill without a name\n---\nBROKEN-BODY\n';
const FIX = '---\ndescription: Fix an issue\nargument-hint: <issue> [area]\n---\nFix issue #$1 in ${2:-the whole app}. Costs $ nothing.\n';
const PERSONAL = '---\nname: haiku\ndescription: Write haiku about code\n---\nHAIKU-BODY: five, seven, five.\n';

function repoZip(): Buffer {
  return Buffer.from(zipSync({
    'shop-main/README.md': encode('# Shop\n'),
    'shop-main/.agents/skills/deploy/SKILL.md': encode(DEPLOY),
    'shop-main/.claude/skills/broken/SKILL.md': encode(BROKEN),
    'shop-main/.claude/commands/fix.md': encode(FIX),
  }));
}

type ChatBody = { messages: { role: string; content: unknown }[] };
const systemOf = (mock: MockProvider, n: number) => JSON.stringify((mock.requests[n].body as ChatBody).messages[0]);
const lastUserOf = (mock: MockProvider, n: number) => JSON.stringify((mock.requests[n].body as ChatBody).messages.filter((m) => m.role === 'user').pop());
const userMessages = (page: Page) => page.locator('[data-testid="message"][data-role="user"]');
const assistantMessages = (page: Page) => page.locator('[data-testid="message"][data-role="assistant"]');

async function send(page: Page, text: string) {
  const input = page.getByTestId('prompt-input');
  await input.fill(text);
  await page.getByTestId('send').click();
}

for (const size of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
  test.describe(`at ${size.width}x${size.height}`, () => {
    test.use({ viewport: size });

    test('workspace skills and templates reach the wire as they should', async ({ page, mock }) => {
      await openAndConfigure(page, mock);
      await page.getByTestId('import-zip').setInputFiles({ name: 'shop-main.zip', mimeType: 'application/zip', buffer: repoZip() });
      await expect(page.getByTestId('import-result')).toContainText('4 files');

      mock.setScript([textTurn('Noted.'), textTurn('Deployed.'), textTurn('Fixed.')]);
      await send(page, 'What can you do here?');
      await expect(assistantMessages(page).last()).toContainText('Noted.');
      const system = systemOf(mock, 0);
      expect(system).toContain('deploy: Use when: shipping the app to staging (.agents/skills/deploy/SKILL.md)');
      expect(system).toContain("read its SKILL.md");
      expect(system).not.toContain('DEPLOY-BODY');
      expect(system).not.toContain('broken');

      // Settings → Skills lists both, the invalid one with its reason.
      await page.getByTestId('settings-open').click();
      const settings = page.getByTestId('skills-settings');
      await expect(settings.locator('[data-testid="skill-item"][data-name="deploy"]')).toHaveAttribute('data-state', 'on');
      await expect(settings.locator('[data-testid="skill-item"][data-name="deploy"]')).toHaveAttribute('data-source', 'workspace');
      const broken = settings.locator('[data-testid="skill-item"][data-name="broken"]');
      await expect(broken).toHaveAttribute('data-state', 'invalid');
      await expect(broken).toContainText('no `name`');
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('skills-settings')).toBeHidden();

      // The / menu offers the commands, filtered, and is driven by the keyboard.
      const input = page.getByTestId('prompt-input');
      await input.fill('/');
      const menu = page.getByTestId('slash-menu');
      await expect(menu.getByTestId('slash-item')).toHaveCount(3);
      await expect(menu.locator('[data-name="fix"]')).toContainText('<issue> [area]');
      await input.pressSequentially('sk');
      await expect(menu.getByTestId('slash-item')).toHaveCount(1);
      await input.press('Tab');
      await expect(input).toHaveValue('/skill:deploy ');
      await expect(menu).toBeHidden();
      await input.pressSequentially('to staging');
      await input.press('Enter');
      await expect(assistantMessages(page).last()).toContainText('Deployed.');
      expect(lastUserOf(mock, 1)).toContain('DEPLOY-BODY: run npm run build');
      expect(lastUserOf(mock, 1)).toContain('to staging');

      // A template expands on the wire; the transcript shows what was typed, the expansion behind a disclosure.
      await input.fill('/fi');
      await input.press('ArrowDown');
      await input.press('ArrowUp');
      await input.press('Enter');
      await expect(input).toHaveValue('/fix ');
      await input.pressSequentially('42');
      await input.press('Enter');
      await expect(assistantMessages(page).last()).toContainText('Fixed.');
      expect(lastUserOf(mock, 2)).toContain('Fix issue #42 in the whole app. Costs $ nothing.');
      const typed = userMessages(page).last();
      await expect(typed).toContainText('/fix 42');
      await expect(typed.locator('details')).not.toHaveAttribute('open');
      await typed.locator('summary').click();
      await expect(typed.locator('details')).toContainText('Fix issue #42 in the whole app.');

      // An unknown /word is sent as text, with a hint under the composer.
      mock.setScript([textTurn('Plain text then.')]);
      await input.fill('/frobnicate now');
      await page.getByTestId('send').click();
      await expect(page.getByRole('status').filter({ hasText: '/frobnicate is not a command' })).toBeVisible();
      await expect(assistantMessages(page).last()).toContainText('Plain text then.');
      expect(lastUserOf(mock, 3)).toContain('/frobnicate now');

      // After a reload the transcript still shows the typed command.
      await page.reload();
      await expect(userMessages(page).filter({ hasText: '/fix 42' })).toHaveCount(1);
      await expect(userMessages(page).filter({ hasText: '/skill:deploy to staging' })).toHaveCount(1);
    });

    test('a personal skill imported in Settings is offered in a new session and readable at /skills/', async ({ page, mock }) => {
      await openAndConfigure(page, mock);
      await page.getByTestId('settings-open').click();
      await page.getByTestId('skill-import').setInputFiles({ name: 'haiku.zip', mimeType: 'application/zip', buffer: Buffer.from(zipSync({ 'haiku/SKILL.md': encode(PERSONAL), 'commands/poem.md': encode('Write a poem about $ARGUMENTS') })) });
      const item = page.locator('[data-testid="skill-item"][data-name="haiku"]');
      await expect(item).toHaveAttribute('data-source', 'personal');
      await expect(item).toHaveAttribute('data-state', 'on');
      // Off and on again, as the person would try it.
      await item.getByTestId('skill-toggle').click();
      await expect(item).toHaveAttribute('data-state', 'off');
      await item.getByTestId('skill-toggle').click();
      await expect(item).toHaveAttribute('data-state', 'on');
      await page.getByTestId('skill-import').setInputFiles({ name: 'notes.zip', mimeType: 'application/zip', buffer: Buffer.from(zipSync({ 'notes.txt': encode('x') })) });
      await expect(page.getByTestId('skill-error')).toContainText('holds no SKILL.md');
      await page.keyboard.press('Escape');

      await page.reload();
      await expect(page.getByTestId('runtime-status')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
      if (size.width < 900) await page.getByRole('button', { name: 'Show sessions' }).click();
      await page.getByTestId('new-session').click();
      mock.setScript([callTurn('read', { path: '/skills/haiku/SKILL.md' }), textTurn('Read the skill.')]);
      await send(page, 'Write a haiku about this repo');
      await expect(assistantMessages(page).last()).toContainText('Read the skill.');
      expect(systemOf(mock, 0)).toContain('haiku: Write haiku about code (/skills/haiku/SKILL.md)');
      expect(systemOf(mock, 0)).not.toContain('HAIKU-BODY');
      const toolResult = JSON.stringify((mock.requests[1].body as ChatBody).messages.filter((m) => m.role === 'tool').pop());
      expect(toolResult).toContain('HAIKU-BODY: five, seven, five.');
      await expect(page.locator('[data-testid="tool-call"][data-tool="read"]')).toHaveAttribute('data-status', 'done');

      // Removing it takes it out of the next request.
      await page.getByTestId('settings-open').click();
      await page.locator('[data-testid="skill-item"][data-name="haiku"]').getByTestId('skill-remove').click();
      await expect(page.locator('[data-testid="skill-item"][data-name="haiku"]')).toHaveCount(0);
      await page.keyboard.press('Escape');
      mock.setScript([textTurn('ok')]);
      await send(page, 'again');
      await expect(assistantMessages(page).last()).toContainText('ok');
      expect(systemOf(mock, 2)).not.toContain('/skills/haiku');
    });
  });
}
