// The embedded runtime's git on a generated repo (a typical one of 2,000 files and a big one of 20,000 files,
// ~48 MB): the first command, which makes the repository of the imported baseline, then status and diff after a
// one-line edit, each beside this machine's real git on the same files. Prints milliseconds; asserts nothing.
// just-git hashes every tracked file on each status/diff (it keeps no stat cache), through crypto.subtle here as in
// the browser's worker, so these grow with the repo's size.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createEmbeddedRuntime } from '../src/runtime/embedded';

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
  await runtime.setBaseline({ name: 'bench.zip', files: async () => files });
  const edited = files[Math.floor(count / 2)].path;

  const dir = mkdtempSync(join(tmpdir(), 'conch-git-bench-'));
  for (const file of files) {
    mkdirSync(dirname(join(dir, file.path)), { recursive: true });
    writeFileSync(join(dir, file.path), file.data);
  }
  const real = (command: string) => execFileSync('bash', ['-c', command], { cwd: dir, env: realGitEnv, encoding: 'utf8', maxBuffer: 1 << 28 });
  const realFirst = await timed(() => real('git init -q -b main && git add -A && git commit -q -m "Imported bench.zip"'));

  const row = async (label: string, command: string, realCommand = command) => {
    const mine = await timed(() => runtime.exec(command));
    if (mine.value.exitCode !== 0) throw new Error(`${command} failed: ${mine.value.output.slice(0, 500)}`);
    const theirs = await timed(() => real(realCommand));
    console.log(`  ${label.padEnd(52)} ${mine.ms.toFixed(0).padStart(7)} ms   (real git ${theirs.ms.toFixed(0)} ms)`);
  };
  const first = await timed(() => runtime.exec('git status --short'));
  console.log(`  ${'first git command (makes the baseline repo)'.padEnd(52)} ${first.ms.toFixed(0).padStart(7)} ms   (real git init+add+commit ${realFirst.ms.toFixed(0)} ms)`);
  await row('git status, clean', 'git status');
  await runtime.exec(`echo "// edited" >> ${edited}`);
  real(`echo "// edited" >> ${edited}`);
  await row('git status --short, one file edited', 'git status --short');
  await row('git diff', 'git diff');
  await row('git diff --stat', 'git diff --stat');
  await row('git add -A && git commit (one file edited)', 'git add -A && git commit -q -m edit');
  await row('git log --oneline', 'git log --oneline');
  rmSync(dir, { recursive: true, force: true });
  await runtime.dispose();
}
