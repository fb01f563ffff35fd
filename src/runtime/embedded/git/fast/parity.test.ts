import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbeddedRuntime, type EmbeddedRuntime } from '../../in-process';
import { RealGitWorkTree, SHARED_GIT_ENV } from '../../../testing/real-git';
import { toModelText } from '../../../exec/model-text';

// The fast paths (status, diff, add, commit from stat data) and this machine's real git on one scripted scenario:
// add, modify, delete, rename, executable bit, a new folder, ignored files, binary files and CRLF line ends. Every
// command's output must be the same, commit ids included (same identity and clock on both sides).

beforeAll(() => {
  try {
    execFileSync('git', ['--version']);
  } catch {
    execFileSync('apt-get', ['install', '-y', 'git'], { stdio: 'ignore' }); // the comparison needs a real git
  }
});

let real: RealGitWorkTree;
let embedded: EmbeddedRuntime;
afterAll(async () => {
  real?.remove();
  await embedded?.dispose();
});

const BINARY = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3, 0, 255]);
const FILES: Record<string, string | Uint8Array> = {
  'README.md': '# Project\n\nA small project.\n',
  'src/app.js': 'const a = 1;\nconst b = 2;\nfunction sum() {\n  return a + b;\n}\nconsole.log(sum());\n',
  'src/util.js': 'exports.twice = (n) => n * 2;\nexports.thrice = (n) => n * 3;\n',
  'run.sh': 'echo run\n',
  'docs/guide.md': 'Read me first.\n',
  'crlf.txt': 'one\r\ntwo\r\nthree\r\n',
  '.gitignore': '*.log\nbuild/\n',
};

async function expectSame(...commands: string[]): Promise<void> {
  for (const command of commands) {
    const mine = await embedded.exec(command, { env: SHARED_GIT_ENV });
    const theirs = real.run(command);
    // The runtime's output is what the model reads (toModelText: no carriage returns); the bytes are checked with base64.
    const normalise = (output: string, dir: string) => toModelText(output).split(dir).join('<workdir>');
    expect({ output: normalise(mine.output, embedded.workdir), exitCode: mine.exitCode }, `git disagrees on: ${command}`).toEqual({
      output: normalise(theirs.output, real.dir),
      exitCode: theirs.exitCode,
    });
  }
}

describe('the fast git paths compared with real git', () => {
  it('agree on status, diff, add and commit through a scripted scenario', async () => {
    real = new RealGitWorkTree();
    real.write({ ...FILES, 'image.bin': BINARY });
    embedded = createEmbeddedRuntime({ files: Object.fromEntries(Object.entries(FILES).map(([path, data]) => [path, String(data)])) });
    await embedded.writeFile('image.bin', BINARY);
    await expectSame('git init -q', 'git add -A', 'git commit -q -m base', 'git status', 'git status --short', 'git diff');

    const edits = [
      "printf 'const a = 1;\\nconst b = 3;\\nfunction sum() {\\n  return a + b;\\n}\\nconsole.log(sum());\\n' > src/app.js",
      'rm docs/guide.md',
      'mv src/util.js src/helpers.js',
      'chmod +x run.sh',
      'mkdir -p lib/deep && printf "new\\n" > lib/deep/new.js && printf "x\\n" > lib/top.js',
      'printf "noise\\n" > debug.log && mkdir -p build && printf "out\\n" > build/out.js',
      "printf 'one\\r\\nTWO\\r\\nthree\\r\\nfour\\r\\n' > crlf.txt",
    ];
    for (const edit of edits) await expectSame(edit);
    const edited = new Uint8Array([...BINARY, 0, 7]); // the shells' printf differ on octal escapes: written directly
    real.write({ 'image.bin': edited });
    await embedded.writeFile('image.bin', edited);
    await expectSame('git status', 'git status --short', 'git status --porcelain', 'git status -sb', 'git diff | base64');
    await expectSame('git diff', 'git diff --name-only', 'git diff --name-status', 'git diff --stat -- src/app.js crlf.txt', 'git diff HEAD');

    await expectSame('git add -A', 'git status', 'git status --short', 'git status --porcelain');
    await expectSame('git diff', 'git diff --cached', 'git diff --cached --name-only', 'git diff --cached --name-status');
    await expectSame('git commit -m "Second: the edits"', 'git status', 'git log --oneline', 'git show', 'git diff HEAD~1', 'git diff HEAD~1 --stat');

    await expectSame("printf 'console.log(2);\\n' >> src/app.js && rm README.md", 'git diff --stat', 'git commit -am third', 'git status --short', 'git log --oneline');
    await expectSame('printf "staged\\n" > staged.txt && git add staged.txt && printf "more\\n" >> staged.txt', 'git status', 'git status -s', 'git diff', 'git diff --cached --stat');

    // Nothing staged: git prints the status and fails, whatever the work tree holds.
    await expectSame('git commit -q -m staged', 'git commit -m again', 'git commit -qm "again, quietly"');
    await expectSame('printf "loose\\n" > loose.txt && printf "edit\\n" >> staged.txt', 'git commit -m "not staged"');
    await expectSame('git add -A && git commit -qm fourth', 'git commit -am "clean now"', 'git log --oneline');
  });
});
