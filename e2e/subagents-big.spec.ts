// Subagents on a real-sized workspace (bench/lib/big-repo.ts: 20,044 files): an explore task greps the whole tree
// while two workers, each in its own fork in the runtime's Worker, edit a file each; both merge, the Changes tab lists
// exactly those two files, and the tasks' time is printed.
import { generateBigRepo, repoZip } from '../bench/lib/big-repo';
import { ask, expect, openAndConfigure, snapshot, test, type MockTurn } from './fixtures';

const repo = generateBigRepo();
const sources = repo.files.filter((f) => f.path.startsWith('packages/') && f.path.endsWith('.ts'));

/** An edit of `file`: a line that occurs once in it, with a comment appended. */
function editOf(file: (typeof sources)[number], tag: string) {
  const lines = new TextDecoder().decode(file.data).split('\n');
  const line = lines.find((l) => l.length > 20 && lines.indexOf(l) === lines.lastIndexOf(l));
  if (!line) throw new Error(`no unique line in ${file.path}`);
  return { path: file.path, edits: [{ oldText: line, newText: `${line} // ${tag}` }] };
}

const first = editOf(sources[1000], 'worker one');
const second = editOf(sources[9000], 'worker two');
const sub = (prompt: string, content: MockTurn['content']): MockTurn => ({ when: { lastUserContains: prompt }, content });
const task = (id: string, agent: string, description: string, prompt: string) => ({ type: 'toolCall' as const, id, name: 'task', arguments: { description, prompt, agent } });

test('on the 20,000-file workspace an explore task greps everything while two workers edit in their forks; both merge', async ({ page, mock }) => {
  test.setTimeout(300_000);
  mock.setScript([
    { content: [
      task('t-grep', 'explore', 'Count exports', 'COUNT-EXPORTS: how many files export something?'),
      task('t-one', 'worker', 'First edit', 'FIRST-EDIT: tag one line'),
      task('t-two', 'worker', 'Second edit', 'SECOND-EDIT: tag another line'),
    ] },
    sub('COUNT-EXPORTS', [{ type: 'toolCall', name: 'grep', arguments: { pattern: 'export', path: 'packages', limit: 5 } }]),
    sub('COUNT-EXPORTS', [{ type: 'text', text: 'Many files export something.' }]),
    sub('FIRST-EDIT', [{ type: 'toolCall', name: 'edit', arguments: first }]),
    sub('FIRST-EDIT', [{ type: 'text', text: 'First tagged.' }]),
    sub('SECOND-EDIT', [{ type: 'toolCall', name: 'edit', arguments: second }]),
    sub('SECOND-EDIT', [{ type: 'text', text: 'Second tagged.' }]),
    { when: { lastToolResultContains: 'Second tagged.' }, content: [{ type: 'text', text: 'Both edits are in.' }] },
  ]);
  await openAndConfigure(page, mock);
  await page.getByTestId('import-zip').setInputFiles({ name: 'big-repo-main.zip', mimeType: 'application/zip', buffer: Buffer.from(repoZip(repo)) });
  await expect(page.getByTestId('import-result')).toContainText('20,044 files', { timeout: 180_000 });

  const started = Date.now();
  await ask(page, 'Count the exports and tag two lines');
  await expect(page.locator('[data-testid="message"][data-role="assistant"]').last()).toContainText('Both edits are in.', { timeout: 60_000 });
  console.log(`three tasks on the 20,044-file workspace, prompt to last reply: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  for (const id of ['t-grep', 't-one', 't-two']) await expect(page.locator(`[data-testid="task-card"][data-call-id="${id}"]`)).toHaveAttribute('data-status', 'done');
  await snapshot(page, 'subagents-big-01-done');

  await page.getByTestId('tab-changes').click();
  await page.getByTestId('changes-refresh').click();
  await expect(page.getByTestId('changes')).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
  const changed = await page.getByTestId('change-file').evaluateAll((items) => items.map((i) => `${i.getAttribute('data-status')} ${i.getAttribute('data-path')}`));
  expect(changed).toEqual([`modified ${first.path}`, `modified ${second.path}`].sort());
  await snapshot(page, 'subagents-big-02-changes');
});
