// The shell's rg and grep -r against the real ripgrep and GNU grep, run on the same tree written to disk: the same
// output (stdout), the same exit status. ripgrep runs with --sort path (ours prints in path order; ripgrep's own
// order varies from run to run); GNU grep lists files in directory order, so its lines are compared sorted unless the
// case prints context, where the tree is arranged to have one matching file.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbeddedRuntime, type EmbeddedRuntime } from '../in-process';

const hasRipgrep = spawnSync('rg', ['--version']).status === 0;

const latin1 = (text: string) => Uint8Array.from(text, (char) => char.charCodeAt(0));

const TREE: Record<string, string | Uint8Array> = {
  '.git/HEAD': 'ref: refs/heads/main\n',
  '.gitignore': 'dist/\n*.log\n!keep.log\n',
  '.ignore': 'ignored-by-dot-ignore.txt\n',
  '.hidden.txt': 'foo hidden\n',
  '.config/settings.json': '{ "foo": 1 }\n',
  'README.md': '# Foo\nfoo in markdown\nFoo capital\n',
  'a.txt': 'foo one\nbar\nbaz\nqux\nfoo two\n',
  'a.b.txt': 'a.b literal\naxb any\n',
  'crlf.txt': 'foo crlf\r\nbar crlf\r\n',
  'bom.txt': '\uFEFFfoo after a bom\n',
  'no-newline.txt': 'last line foo',
  'empty.txt': '',
  'blank-lines.txt': 'one\n\nthree\n\n',
  'unicode.txt': 'Straße foo\nfoo_bar foobar foo-bar\nnaïve café\n',
  'words.txt': 'foo\nfoofoo\nfoo foo foo\nxfoo\nfoo.\n-foo-\n',
  'numbers.txt': 'foo1 foo22 bar333\nbar4\nxxx xxxx\n',
  'debug.log': 'foo in a log\n',
  'keep.log': 'foo kept by negation\n',
  'dist/bundle.js': 'foo in dist\n',
  'ignored-by-dot-ignore.txt': 'foo dot ignore\n',
  'bin.dat': latin1('foo\0binary\n'),
  'latin1.txt': latin1('caf\xe9 foo\nplain foo\n'),
  'src/main.ts': 'import { foo } from "./util";\nfoo();\n',
  'src/util.ts': 'export function foo() {\n  return 42;\n}\n',
  'src/app.test.ts': 'test("foo", () => {});\n',
  'src/script.py': 'def foo():\n    pass\n',
  'src/lib.rs': 'fn foo() {}\n',
  'src/deep/nested/file.js': 'const foo = 1;\n',
  'ctx/only.txt': 'alpha\nbeta\nfoo gamma\ndelta\nepsilon\nzeta\nfoo eta\ntheta\n',
};

let disk: string;
let runtime: EmbeddedRuntime;

beforeAll(async () => {
  disk = mkdtempSync(join(tmpdir(), 'conch-rg-parity-'));
  for (const [path, content] of Object.entries(TREE)) {
    mkdirSync(dirname(join(disk, path)), { recursive: true });
    writeFileSync(join(disk, path), content);
  }
  symlinkSync('a.txt', join(disk, 'link.txt'));
  runtime = createEmbeddedRuntime({ files: TREE });
  const link = await runtime.exec('ln -s a.txt link.txt');
  expect(link.exitCode).toBe(0);
});

afterAll(async () => {
  rmSync(disk, { recursive: true, force: true });
  await runtime.dispose();
});

// stdout as bytes (base64 through a pipe keeps a \r or a Latin-1 byte as it was printed), then the exit status.
const printed = (command: string) => `${command} 2>/dev/null | base64 -w0`;
const status = (command: string) => `${command} >/dev/null 2>&1; echo "[exit $?]"`;
const bytesOf = (base64: string) => Buffer.from(base64.trim(), 'base64').toString('latin1');

/** What `command` prints and its exit status, run by bash in the tree on disk (stdin closed, as ripgrep needs). */
function real(command: string): string {
  const run = (script: string) =>
    spawnSync('bash', ['-c', script], {
      cwd: disk,
      env: { ...process.env, LC_ALL: 'C.UTF-8', LANG: 'C.UTF-8' },
      stdio: ['ignore', 'pipe', 'pipe'],
    }).stdout.toString();
  return bytesOf(run(printed(command))) + run(status(command));
}

/** What `command` prints and its exit status in the embedded runtime's shell. */
async function ours(command: string): Promise<string> {
  return bytesOf((await runtime.exec(printed(command))).output) + (await runtime.exec(status(command))).output;
}

const sortedLines = (output: string) => output.split('\n').sort().join('\n');

const RG_CASES = [
  'rg foo', 'rg -n foo', 'rg -i FOO', 'rg -F a.b', 'rg a.b', 'rg -w foo', 'rg -x foo', 'rg -v foo a.txt', 'rg -c foo',
  'rg -l foo', 'rg --files', 'rg -o "fo+"', 'rg -n -C1 foo', 'rg -A1 foo', 'rg -B2 -n foo', 'rg -m1 foo',
  'rg -e foo -e bar', 'rg -g "*.ts" foo', 'rg -g "!*.ts" foo', 'rg -g "src/**" -n foo', 'rg -t py foo', 'rg -T ts foo',
  'rg --hidden foo', 'rg -uu foo', 'rg --no-ignore foo', 'rg --max-depth 1 foo', 'rg -S Foo', 'rg -S foo',
  'rg foo src', 'rg foo ./src/', 'rg foo a.txt', 'rg -H foo a.txt', 'rg -I foo', 'rg "fo[o]\\s+\\w+"',
  'rg "(foo|bar)\\d+"', 'rg -n "\\bfoo\\b"', 'rg foo missing.txt a.txt', 'rg zzz', 'rg foo bin.dat', 'rg -c foo bin.dat',
  'rg -n "foo$"', 'rg -n "crlf.$"', 'rg -n "^foo" bom.txt', 'rg -n "^$"', 'rg -n "" no-newline.txt',
  'rg --count-matches foo', 'rg -q foo', 'rg --files-without-match foo', 'rg "x{3,4}"', 'rg -F -x "foo"',
  'rg -i straße', 'rg "caf."', 'rg -n foo latin1.txt', 'rg -ni "FOO" -g "*.md"', 'rg -w "foo_bar"', 'rg foo link.txt',
  'rg -l foo src ctx', 'rg -c "\\p{Lu}"', 'rg "[[:digit:]]{3}"', 'rg "\\x66oo\\."',
  'echo "foo from stdin" | rg foo', 'printf "a\\nfoo\\n" | rg -n foo', 'rg -c -v foo a.txt', 'rg -o -i FOO',
  'rg -l -g "*.md" -i foo', 'rg -n -w -i FOO src', 'rg --type-not md -l foo', 'rg -tts -l foo', 'rg -C 1 gamma ctx',
  'rg -B1 eta ctx/only.txt', 'rg -l "^def " -t py', 'rg -x "" blank-lines.txt -n', 'rg "(?i)STRASSE|straße"',
];

describe.skipIf(!hasRipgrep)('the shell\'s rg against ripgrep', () => {
  it.each(RG_CASES)('%s', async (command) => {
    const sorted = command.replace(/^rg /, 'rg --sort path ');
    expect(await ours(sorted)).toBe(real(sorted));
  });
});

const GREP_CASES: [string, 'sorted' | 'exact'][] = [
  ['grep -r foo', 'sorted'], ['grep -rn foo .', 'sorted'], ['grep -ri FOO src', 'sorted'], ['grep -rw foo', 'sorted'],
  ['grep -rx foo', 'sorted'], ['grep -rv foo ctx', 'exact'], ['grep -rc foo', 'sorted'], ['grep -rl foo', 'sorted'],
  ['grep -rL foo', 'sorted'], ['grep -ro "fo*"', 'sorted'], ['grep -rn -C1 foo ctx', 'exact'], ['grep -rn -A1 -B2 gamma ctx', 'exact'],
  ['grep -rE "(foo|bar)[0-9]+"', 'sorted'], ['grep -r "fo\\+"', 'sorted'], ['grep -r "a\\.b"', 'sorted'], ['grep -rF "a.b"', 'sorted'],
  ['grep -rn --include="*.ts" foo .', 'sorted'], ['grep -r --exclude="*.ts" --exclude="*.txt" foo', 'sorted'],
  ['grep -r --exclude-dir=src --exclude-dir=.git foo', 'sorted'], ['grep -r -e foo -e bar', 'sorted'],
  ['grep -rh foo src', 'sorted'], ['grep -rH foo a.txt', 'exact'], ['grep -r foo a.txt', 'exact'],
  ['grep -rm1 foo', 'sorted'], ['grep -r foo missing.txt a.txt', 'exact'], ['grep -rI foo', 'sorted'],
  ['grep -rP "\\d{2,}"', 'sorted'], ['grep -r "\\<foo\\>"', 'sorted'], ['grep -rn "crlf$"', 'sorted'],
  ['grep -rq foo', 'exact'], ['grep -rq zzz', 'exact'], ['grep -rn "^" ctx', 'exact'], ['grep -rc "" .', 'sorted'],
  ['grep -r "x\\{3\\}"', 'sorted'], ['grep -rE "x{3}|^bar"', 'sorted'], ['grep -r "[[:upper:]]"', 'sorted'],
  ['grep -rn "foo" latin1.txt', 'exact'], ['grep -r "^foo" bom.txt', 'exact'], ['grep -rno "foo\\|bar" ctx src', 'sorted'],
  ['grep -R foo link.txt', 'exact'], ['grep -rn "*foo"', 'sorted'], ['grep -rE "a|*b"', 'sorted'],
  ['grep -rn -w -i FOO src', 'sorted'], ['grep -rv -c foo ctx', 'exact'], ['grep -rl --include="*.py" foo', 'exact'],
  ['grep -rA1 alpha ctx', 'exact'], ['grep -r -o -E "[0-9]+"', 'sorted'], ['grep -rn "\\bfoo\\w*"', 'sorted'],
  ['grep -rc -i "Foo" README.md', 'exact'], ['grep -rlv foo ctx src', 'sorted'], ['grep -rE -x "foo|bar" .', 'sorted'],
];

describe('the shell\'s grep -r against GNU grep', () => {
  it.each(GREP_CASES)('%s', async (command, compare) => {
    const expected = real(command);
    const actual = await ours(command);
    if (compare === 'exact') expect(actual).toBe(expected);
    else expect(sortedLines(actual)).toBe(sortedLines(expected));
  });
});

describe('what the shell\'s rg and grep leave to just-bash', () => {
  it('hands options it does not handle to the built-in command', async () => {
    const json = await runtime.exec('rg --json foo a.txt');
    expect(json.output).toContain('"type":"match"');
    const plain = await runtime.exec('grep foo a.txt');
    expect(plain.output).toBe('foo one\nfoo two\n');
  });
});
