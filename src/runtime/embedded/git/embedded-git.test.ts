import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmbeddedRuntime, type EmbeddedRuntime } from '../in-process';
import { RealGitWorkTree, SHARED_GIT_ENV } from '../../testing/real-git';

// The embedded `git` and this machine's real git run the same commands on the same files, with the same identity
// and clock, so even commit ids must agree; only the work tree's own path differs.

let real: RealGitWorkTree | undefined;
afterEach(() => {
  real?.remove();
  real = undefined;
});

type Side = { output: string; exitCode: number | null };

/** Both gits side by side: `run` executes one command on each and returns both results, paths normalised. */
function sideBySide(files: Record<string, string> = {}) {
  real = new RealGitWorkTree();
  const tree = real;
  tree.write(files);
  const embedded = createEmbeddedRuntime({ files });
  const normalise = (side: Side, workdir: string): Side => ({ output: side.output.split(workdir).join('<workdir>'), exitCode: side.exitCode });
  return {
    embedded,
    real: tree,
    async run(command: string): Promise<{ embedded: Side; real: Side }> {
      const mine = await embedded.exec(command, { env: SHARED_GIT_ENV });
      return { embedded: normalise(mine, embedded.workdir), real: normalise(tree.run(command), tree.dir) };
    },
    /** Runs each command on both and expects the same output and exit code. */
    async expectSame(...commands: string[]): Promise<void> {
      for (const command of commands) {
        const result = await this.run(command);
        expect(result.embedded, `git disagrees on: ${command}`).toEqual(result.real);
      }
    },
  };
}

const FILES = {
  'README.md': '# Tïtle ✓\n\nA small project.\n',
  'src/main.js': 'const a = 1;\nconst b = 2;\nconsole.log(a + b);\n',
  'src/lib/util.js': 'exports.twice = (n) => n * 2;\n',
};

describe('embedded git compared with real git', () => {
  it('init, status, add, commit, diff and log print what real git prints', async () => {
    const both = sideBySide(FILES);
    await both.expectSame(
      'git init',
      'git status',
      'git status --short',
      'git add -A',
      'git status',
      'git diff --cached',
      'git diff --cached --stat',
      'git commit -m "First commit"',
      'git status',
    );
    // The same edits on both sides: a change, a deletion, a new file.
    await both.expectSame(
      "printf 'const a = 1;\\nconst b = 3;\\nconsole.log(a + b);\\n' > src/main.js && rm README.md && printf 'notes\\n' > NOTES.txt",
    );
    await both.expectSame('git status', 'git status --short', 'git diff', 'git diff --stat', 'git diff src/main.js');
    await both.expectSame('git add -A', 'git diff --cached --stat', 'git commit -m "Second commit"');
    await both.expectSame('git log', 'git log --oneline', 'git log -p', 'git show', 'git show --stat HEAD~1');
  });

  it('branch, switch, checkout, stash, restore, reset and rm behave like real git', async () => {
    const both = sideBySide(FILES);
    await both.expectSame('git init', 'git add -A', 'git commit -m base', 'git branch feature', 'git branch', 'git switch feature');
    await both.expectSame("printf 'x\\n' > feature.txt", 'git add feature.txt', 'git commit -m "Add feature"');
    await both.expectSame('git switch main', 'git branch', 'git log --oneline feature', 'git checkout feature', 'git checkout main');
    await both.expectSame("printf 'dirty\\n' >> src/main.js", 'git stash', 'git status --short', 'git stash list', 'git stash pop', 'git status --short');
    await both.expectSame('git restore src/main.js', 'git status --short');
    await both.expectSame("printf 'staged\\n' >> README.md", 'git add README.md', 'git status --short', 'git restore --staged README.md', 'git status --short');
    await both.expectSame('git reset --hard', 'git status --short', 'git rm src/lib/util.js', 'git status --short', 'git reset HEAD src/lib/util.js', 'git status --short');
    await both.expectSame('git checkout -- src/lib/util.js', 'git status --short', 'git reset --soft HEAD~1', 'git status --short', 'git log --oneline');
    // Staging everything: a new folder, a deletion, an edit of an already staged file; then `add .` below the top.
    await both.expectSame("mkdir -p docs/deep && printf 'doc\\n' > docs/deep/x.md && rm src/lib/util.js && printf 'again\\n' >> feature.txt");
    await both.expectSame('git add -A', 'git status --short', 'git commit -qm "Everything"', 'git status --short');
    await both.expectSame("printf 'one\\n' > src/one.js && printf 'two\\n' > docs/two.md", 'cd src && git add . && cd ..', 'git status --short');
  });

  it('takes git\'s usual spellings just-git lacks: global options, paths without --, -q, diff --quiet', async () => {
    const both = sideBySide(FILES);
    await both.expectSame('git init -q', 'git add -A', 'git commit -qm "First commit"', 'git --no-pager log --oneline');
    await both.expectSame("printf 'changed\\n' >> src/main.js && printf 'more\\n' >> README.md");
    await both.expectSame(
      'git diff src/main.js',
      'git diff --stat src',
      'git diff HEAD src/main.js',
      'git log --oneline src/lib/util.js',
      'git -C src --no-pager diff --stat',
      'git diff --quiet; echo "exit $?"',
      'git diff --exit-code --stat; echo "exit $?"',
      'git diff --cached --quiet; echo "exit $?"',
      'git -c user.name=Grace -c user.email=grace@example.com commit -qam "Second commit"',
      'git log -1 --format="%an <%ae> %s"',
      'git checkout -q -b topic && git branch --show-current',
    );
    // Without the shared identity in the environment, -c sets who commits.
    await both.embedded.exec('git -c user.name=Grace -c user.email=grace@example.com commit -q --allow-empty -m Third');
    expect((await both.embedded.exec('git log -1 --format="%an <%ae>"')).output).toBe('Grace <grace@example.com>\n');
    const unsupported = await both.run('git -c core.autocrlf=true status');
    expect(unsupported.embedded.exitCode).not.toBe(0);
    expect(unsupported.embedded.output).toContain('git config core.autocrlf');
    expect((await both.run('git -C missing status')).embedded.output).toBe("fatal: cannot change to 'missing': No such file or directory\n");
  });

  it('stages every change with add -A, unusual file names included', async () => {
    const rt = createEmbeddedRuntime({ files: FILES });
    await rt.exec('git init -q && git add -A && git commit -qm base');
    await rt.exec(`printf x > 'ünï code.md' && printf y > ./-dash.txt && printf z > 'q"uote.txt' && rm README.md && printf w >> src/main.js`);
    expect(await rt.exec('git add -A')).toEqual({ output: '', exitCode: 0 });
    expect((await rt.exec('git status --porcelain')).output).toBe('A  -dash.txt\nD  README.md\nA  "q\\"uote.txt"\nM  src/main.js\nA  "ünï code.md"\n');
  });

  it('says that clone, fetch, pull and push need a network the embedded runtime does not have', async () => {
    const rt = createEmbeddedRuntime();
    for (const subcommand of ['clone https://github.com/octocat/Hello-World.git', 'fetch origin', 'pull', 'push origin main']) {
      const result = await rt.exec(`git ${subcommand}`);
      expect(result.exitCode).toBe(1);
      expect(result.output).toContain(`git ${subcommand.split(' ')[0]} is not available in Conch's embedded runtime: it has no network access`);
      expect(result.output.includes('"Open pull request"')).toBe(subcommand.startsWith('push'));
    }
    expect(await rt.stat('Hello-World')).toBeNull();
  });
});

describe('the imported baseline as the first commit', () => {
  const baselineOf = (name: string, files: Record<string, string>) => ({
    name,
    files: async () => Object.entries(files).map(([path, content]) => ({ path, data: new TextEncoder().encode(content) })),
  });

  async function importedRuntime(workspace: Record<string, string>, baseline: Record<string, string> = workspace): Promise<EmbeddedRuntime> {
    const rt = createEmbeddedRuntime();
    await rt.importFiles(Object.entries(workspace).map(([path, content]) => ({ path, data: new TextEncoder().encode(content) })));
    await rt.setBaseline(baselineOf('project-main.zip', baseline));
    return rt;
  }

  it('gives the same blob ids and diff as real git given the imported files as its first commit', async () => {
    const both = sideBySide();
    const rt = await importedRuntime(FILES);
    both.real.write(FILES);
    both.real.run('git init && git add -A && git commit -q -m "Imported project-main.zip"');
    const edit = "printf 'const a = 10;\\nconst b = 2;\\nconsole.log(a + b);\\n' > src/main.js";
    await rt.exec(edit);
    both.real.run(edit);
    const mine = await rt.exec('git diff');
    expect(mine.output).toBe(both.real.run('git diff').output);
    expect(mine.output).toContain('-const a = 1;\n+const a = 10;\n');
    expect((await rt.exec('git status --short')).output).toBe(' M src/main.js\n');
  });

  it('is a repository real git reads: clean status, the baseline commit, an intact object store', async () => {
    const rt = await importedRuntime(FILES);
    expect((await rt.exec('git status --short')).output).toBe('');
    real = new RealGitWorkTree();
    for (const [path, data] of Object.entries(unzipSync(await rt.exportZip({ exclude: [] })))) {
      if (path.endsWith('/')) continue;
      mkdirSync(dirname(join(real.dir, path)), { recursive: true });
      writeFileSync(join(real.dir, path), data);
    }
    expect(real.run('git status --porcelain')).toEqual({ output: '', exitCode: 0 });
    expect(real.run('git log --format="%an <%ae>|%s"').output).toBe('Conch <conch@localhost>|Imported project-main.zip\n');
    expect(real.run('git ls-files').output).toBe('README.md\nsrc/lib/util.js\nsrc/main.js\n');
    expect(real.run('git fsck --strict').exitCode).toBe(0);
    expect(real.run('git rev-parse --abbrev-ref HEAD').output).toBe('main\n');
    expect(execFileSync('git', ['hash-object', 'src/main.js'], { cwd: real.dir, encoding: 'utf8' }).trim()).toBe(
      real.run('git rev-parse HEAD:src/main.js').output.trim(),
    );
  });

  it('after a restore, shows the restored edits against the baseline', async () => {
    const edited = { ...FILES, 'src/main.js': FILES['src/main.js'].replace('b = 2', 'b = 20') };
    delete (edited as Record<string, string>)['README.md'];
    const rt = await importedRuntime({ ...edited, 'added.txt': 'new\n' }, FILES);
    expect((await rt.exec('git status --short')).output).toBe(' D README.md\n M src/main.js\n?? added.txt\n');
    expect((await rt.exec('git diff --stat')).output).toBe(' README.md   | 3 ---\n src/main.js | 2 +-\n 2 files changed, 1 insertion(+), 4 deletions(-)\n');
  });

  it('is made once: a .git removed on purpose stays removed until the workspace is replaced', async () => {
    const rt = await importedRuntime(FILES);
    expect((await rt.exec('git log --oneline')).output).toMatch(/Imported project-main\.zip/);
    await rt.exec('rm -rf .git');
    expect((await rt.exec('git status')).output).toMatch(/not a git repository/);
    await rt.exec('git init -b fresh');
    expect((await rt.exec('git log')).output).toMatch(/does not have any commits yet/);
    await rt.importFiles(Object.entries(FILES).map(([path, content]) => ({ path, data: new TextEncoder().encode(content) })));
    expect((await rt.exec('git log --oneline')).output).toMatch(/^[0-9a-f]{7} Imported project-main\.zip\n$/);
  });

  it('runs outside the workspace without touching it', async () => {
    const rt = await importedRuntime(FILES);
    await rt.exec('mkdir -p /tmp/elsewhere && (cd /tmp/elsewhere && git init -b other)');
    expect(await rt.stat('.git')).toBeNull();
    expect((await rt.exec('git log --oneline')).output).toMatch(/Imported project-main\.zip/);
  });

  it('explains a baseline that cannot be read, leaves no half-made repository, then goes on without it', async () => {
    const rt = createEmbeddedRuntime({ files: FILES });
    await rt.setBaseline({
      name: 'lost.zip',
      files: async () => {
        throw new Error('the stored baseline could not be read');
      },
    });
    const failed = await rt.exec('git status');
    expect(failed.exitCode).toBe(128);
    expect(failed.output).toContain('(the stored baseline could not be read)');
    expect(failed.output).toContain('`git init` starts an empty repository instead');
    expect(await rt.stat('.git')).toBeNull();
    expect((await rt.exec('git status')).output).toMatch(/not a git repository/);
    expect((await rt.exec('git init')).exitCode).toBe(0);
    expect((await rt.exec('git status --short')).output).toBe('?? README.md\n?? src/\n');
  });

  it('leaves out a .git that came with the baseline: it is not tracked as files', async () => {
    const rt = await importedRuntime(FILES, { ...FILES, '.git/HEAD': 'ref: refs/heads/main\n' });
    expect((await rt.exec('git ls-files')).output).toBe('README.md\nsrc/lib/util.js\nsrc/main.js\n');
  });

  it('names the repository it was imported from as origin: git remote -v shows it', async () => {
    const rt = createEmbeddedRuntime({ files: FILES });
    await rt.setBaseline({ ...baselineOf('octo/hello at 1a2b3c4', FILES), remoteUrl: 'https://github.com/octo/hello' });
    expect((await rt.exec('git remote -v')).output).toBe('origin\thttps://github.com/octo/hello (fetch)\norigin\thttps://github.com/octo/hello (push)\n');
    expect((await rt.exec('git log --format=%s')).output).toBe('Imported octo/hello at 1a2b3c4\n');
    expect((await rt.exec('git status --short')).output).toBe('');
  });
});
