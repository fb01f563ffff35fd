import { describe, expect, it } from 'vitest';
import { createEmbeddedRuntime } from '../in-process';
import { createEmbeddedRuntimeInWorker } from '../client';
import { createInMemoryWorker } from '../../testing/in-memory-worker';
import type { GitPushAnswer, GitPushRequest, Runtime } from '../../types';

// `git push` in the embedded shell hands the committed work to the page (which asks the person and sends it to
// GitHub or GitLab); these check what the page is handed and what the shell then says.

const FILES = { 'README.md': '# hello\n', 'src/main.js': 'console.log(1);\n', 'old.txt': 'old\n' };
const encoder = new TextEncoder();
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const ENV = { GIT_AUTHOR_NAME: 'Ada', GIT_AUTHOR_EMAIL: 'ada@example.com', GIT_COMMITTER_NAME: 'Ada', GIT_COMMITTER_EMAIL: 'ada@example.com' };

/** A page that records each push and answers with `answer`. */
function recordingPage(answer: (request: GitPushRequest) => GitPushAnswer = (r) => ({ pushed: true, branch: r.branch ?? 'conch/fix', lines: ['Pull request #7 opened: https://github.com/octo/hello/pull/7'] })) {
  const requests: GitPushRequest[] = [];
  return { requests, host: async (request: GitPushRequest) => (requests.push(request), answer(request)) };
}

async function importedFrom(runtime: Runtime & { setBaseline(b: unknown): Promise<void> }) {
  await runtime.setBaseline({
    name: 'octo/hello at 1a2b3c4',
    files: async () => Object.entries(FILES).map(([path, content]) => ({ path, data: encoder.encode(content) })),
    remoteUrl: 'https://github.com/octo/hello',
  });
  return runtime;
}

describe('git push in the embedded shell', () => {
  it('hands the page the committed changes since the import, and prints where they went', async () => {
    const page = recordingPage();
    const rt = await importedFrom(createEmbeddedRuntime({ files: FILES, gitPush: page.host }));
    const result = await rt.exec(
      "printf 'console.log(2);\\n' > src/main.js && echo new > added.txt && rm old.txt && git add -A && git commit -q -m 'Print two' && echo later > README.md && git push",
      { env: ENV },
    );
    expect(result.exitCode).toBe(0);
    expect(page.requests).toHaveLength(1);
    const [request] = page.requests;
    expect(request!.remoteUrl).toBe('https://github.com/octo/hello');
    expect(request!.branch).toBeUndefined(); // committed on the imported branch: the page names the branch
    expect(request!.message).toBe('Print two');
    const byPath = Object.fromEntries(request!.changes.map((c) => [c.path, c]));
    expect(Object.keys(byPath).sort()).toEqual(['added.txt', 'old.txt', 'src/main.js']); // README's edit is not committed
    expect(byPath['old.txt']!.kind).toBe('deleted');
    expect(byPath['added.txt']!.kind).toBe('added');
    const main = byPath['src/main.js']!;
    expect(main.kind === 'modified' && 'data' in main && text(main.data)).toBe('console.log(2);\n');
    expect(result.output).toContain('To https://github.com/octo/hello\n   HEAD -> conch/fix\nPull request #7 opened: https://github.com/octo/hello/pull/7');
  });

  it('pushes the current branch to its namesake, or the branch named as HEAD:NAME, with every commit listed', async () => {
    const page = recordingPage();
    const rt = await importedFrom(createEmbeddedRuntime({ files: FILES, gitPush: page.host }));
    await rt.exec("git switch -q -c fix-typo && echo a > a.txt && git add a.txt && git commit -q -m 'Add a' && echo b > b.txt && git add b.txt && git commit -q -m 'Add b'", { env: ENV });
    expect((await rt.exec('git push -u origin', { env: ENV })).exitCode).toBe(0);
    expect((await rt.exec('git push origin HEAD:feature/other', { env: ENV })).exitCode).toBe(0);
    expect(page.requests.map((r) => r.branch)).toEqual(['fix-typo', 'feature/other']);
    expect(page.requests[0]!.message).toBe('Add b\n\n- Add a\n- Add b');
  });

  it('asks the page nothing when there is nothing to send, or when the push would force', async () => {
    const page = recordingPage();
    const rt = await importedFrom(createEmbeddedRuntime({ files: FILES, gitPush: page.host }));
    const nothing = await rt.exec('echo uncommitted > README.md && git push');
    expect(nothing).toMatchObject({ exitCode: 0 });
    expect(nothing.output).toContain('Everything up-to-date');
    await rt.exec("git commit -q -am 'Change README'", { env: ENV });
    for (const command of ['git push --force', 'git push origin +HEAD:main', 'git push -f origin main']) {
      const refused = await rt.exec(command);
      expect(refused.exitCode, command).not.toBe(0);
      expect(refused.output).toContain('never force-pushes');
    }
    const elsewhere = await rt.exec('git push upstream');
    expect(elsewhere.exitCode).toBe(128);
    expect(elsewhere.output).toContain('only remote is origin');
    const dry = await rt.exec('git push --dry-run');
    expect(dry.output).toContain('1 modified (dry run: nothing sent)');
    expect(page.requests).toHaveLength(0);
  });

  it('says why when the person declines, with a failing exit code for the model', async () => {
    const page = recordingPage(() => ({ pushed: false, message: 'the person declined the push; nothing was sent.' }));
    const rt = await importedFrom(createEmbeddedRuntime({ files: FILES, gitPush: page.host }));
    const result = await rt.exec("echo x >> README.md && git commit -q -am 'x' && git push", { env: ENV });
    expect(result.exitCode).toBe(1);
    expect(result.output).toContain('error: the person declined the push; nothing was sent.');
  });

  it('without a page to push through, says there is no network', async () => {
    const rt = await importedFrom(createEmbeddedRuntime({ files: FILES }));
    const result = await rt.exec('git push');
    expect(result.exitCode).not.toBe(0);
    expect(result.output).toContain('no network access');
  });

  it('reaches the page through the worker, and a stopped command withdraws its question', async () => {
    const questions: { answer(answer: GitPushAnswer): void; withdrawn: boolean; paths: string[] }[] = [];
    const rt = await createEmbeddedRuntimeInWorker({
      files: FILES,
      createWorker: () => createInMemoryWorker(),
      gitPush: (request, signal) =>
        new Promise((resolve) => {
          const question = { answer: resolve, withdrawn: false, paths: request.changes.map((c) => c.path) };
          signal?.addEventListener('abort', () => {
            question.withdrawn = true;
            resolve({ pushed: false, message: 'the command was stopped before the person answered; nothing was sent.' });
          });
          questions.push(question);
        }),
    });
    await importedFrom(rt as Runtime & { setBaseline(b: unknown): Promise<void> });
    await rt.exec("echo x >> README.md && git commit -q -am 'x'", { env: ENV });
    const first = rt.exec('git push', { env: ENV });
    await until(() => questions.length === 1);
    expect(questions[0]!.paths).toEqual(['README.md']);
    questions[0]!.answer({ pushed: true, branch: 'conch/x', lines: ['Pull request #1 opened'] });
    expect((await first).output).toContain('HEAD -> conch/x\nPull request #1 opened');

    const controller = new AbortController();
    const second = rt.exec('git push', { env: ENV, signal: controller.signal });
    await until(() => questions.length === 2);
    controller.abort();
    await second;
    await until(() => questions[1]!.withdrawn);
    await rt.dispose();
  });
});

async function until(condition: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
