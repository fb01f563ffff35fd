// The embedded runtime's git on a generated repo (a typical one of 2,000 files and a big one of 20,000 files,
// ~45 MB): the first command, which makes the repository of the imported baseline, then status, diff and
// add + commit after a 3-file edit, each beside this machine's real git on the same files in the same run, with the
// ratio and issue 25's target (set for Chromium). The baseline's files come with the blob ids the snapshot store
// keyed them by, as in the app. Prints milliseconds; asserts nothing. status, diff, add and
// commit run on Conch's stat-cached fast paths (src/runtime/embedded/git/fast/); the first command hashes only the
// trees and writes the objects as uncompressed packs (src/runtime/embedded/git/baseline/).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createEmbeddedRuntime } from '../src/runtime/embedded';
import { blobIdsOf } from '../src/store';

const SIZES = [2_000, 20_000];
const BYTES_PER_FILE = 2_400;

/** `count` source-like files in folders of 40, about BYTES_PER_FILE each. */
function generateRepo(count: number): { path: string; data: Uint8Array }[] {
  const encoder = new TextEncoder();
  const files: { path: string; data: Uint8Array }[] = [];
  for (let i = 0; i < count; i++) {
    const folder = `packages/p${Math.floor(i / 400)}/src/m${Math.floor(i / 40) % 10}`;
    const lines = [`// module ${i}`];
    while (lines.join('\n').length < BYTES_PER_FILE - 60) lines.push(`export const value${lines.length} = ${i * 31 + lines.length}; // generated`);
    files.push({ path: `${folder}/file${i}.ts`, data: encoder.encode(`${lines.join('\n')}\n`) });
  }
  return files;
}

async function timed<T>(run: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await run();
  return { ms: performance.now() - started, value };
}

const realGitEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 'Bench', GIT_AUTHOR_EMAIL: 'b@x', GIT_COMMITTER_NAME: 'Bench', GIT_COMMITTER_EMAIL: 'b@x' };

for (const count of SIZES) {
  const files = generateRepo(count);
  const megabytes = files.reduce((sum, file) => sum + file.data.length, 0) / 1024 / 1024;
  console.log(`\n${count.toLocaleString()} files, ${megabytes.toFixed(1)} MB`);

  const runtime = createEmbeddedRuntime();
  await runtime.importFiles(files);
  // As in the app: the snapshot store hashed the files when it stored the import, and hands git their ids.
  const ids = await blobIdsOf(files.map((file) => [file.path, file.data]));
  const stored = files.map((file) => ({ ...file, blobId: ids.get(file.path)! }));
  await runtime.setBaseline({ name: 'bench.zip', files: async () => stored });

  const dir = mkdtempSync(join(tmpdir(), 'conch-git-bench-'));
  for (const file of files) {
    mkdirSync(dirname(join(dir, file.path)), { recursive: true });
    writeFileSync(join(dir, file.path), file.data);
  }
  const real = (command: string) => execFileSync('bash', ['-c', command], { cwd: dir, env: realGitEnv, encoding: 'utf8', maxBuffer: 1 << 28 });
  const realFirst = await timed(() => real('git init -q -b main && git add -A && git commit -q -m "Imported bench.zip"'));

  const print = (label: string, mine: number, theirs: number, target?: number) =>
    console.log(
      `  ${label.padEnd(46)} ${mine.toFixed(0).padStart(7)} ms   real git ${theirs.toFixed(0).padStart(5)} ms   ×${(mine / theirs).toFixed(1).padStart(5)}` +
        (target === undefined ? '' : `   target ≤ ${target} ms: ${mine <= target ? 'met' : 'missed'}`),
    );
  const row = async (label: string, command: string, target?: number) => {
    const mine = await timed(() => runtime.exec(command));
    if (mine.value.exitCode !== 0) throw new Error(`${command} failed: ${mine.value.output.slice(0, 500)}`);
    const theirs = await timed(() => real(command));
    print(label, mine.ms, theirs.ms, target);
  };
  const big = count >= 20_000;
  const first = await timed(() => runtime.exec('git status --short'));
  print('first git command (real: init+add+commit)', first.ms, realFirst.ms, big ? 1000 : undefined);
  await row('git status, clean', 'git status', big ? undefined : 30);
  const three = [1, 2, 3].map((k) => files[Math.floor((count * k) / 4)].path);
  const edit = three.map((path) => `echo "// edited" >> ${path}`).join(' && ');
  await runtime.exec(edit);
  real(edit);
  await row('git status, 3 files edited', 'git status', big ? 150 : 30);
  await row('git status --short, 3 files edited', 'git status --short');
  await row('git diff', 'git diff', big ? 200 : undefined);
  await row('git diff --stat', 'git diff --stat');
  await row('git add -A && git commit', 'git add -A && git commit -q -m edit', big ? 300 : undefined);
  await row('git status after the commit', 'git status');
  await row('git log --oneline', 'git log --oneline');
  rmSync(dir, { recursive: true, force: true });
  await runtime.dispose();
}
