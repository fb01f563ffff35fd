// `node --test` in the embedded runtime against real Node 20 (this machine's `node`) on the same test files: the
// summary lines and the exit code must match. Timings differ, so the duration lines are left out.

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeWorkspace } from '../testing/node-workspace';

const passing: Record<string, string> = {
  'package.json': '{ "name": "suite-demo" }',
  'math.js': 'exports.add = (a, b) => a + b;',
  'test/math.test.js': `
const test = require('node:test');
const assert = require('node:assert/strict');
const { add } = require('../math.js');
test('adds', () => { assert.equal(add(1, 2), 3); });
test('async adds', async () => { await new Promise((r) => setTimeout(r, 1)); assert.equal(add(2, 2), 4); });
test.describe('suite', () => {
  let ready = false;
  test.before(() => { ready = true; });
  test.it('sees the hook', () => { assert.ok(ready); });
  test.it.skip('skipped one', () => { throw new Error('never'); });
  test.it.todo('todo one');
  test.it('with subtests', async (t) => {
    await t.test('inner', () => {});
  });
});
`,
  'lib/format.test.mjs': `
import { test, describe, it, beforeEach } from 'node:test';
import assert from 'node:assert';
describe('esm suite', () => {
  let n = 0;
  beforeEach(() => { n++; });
  it('counts', () => { assert.strictEqual(n, 1); });
  it('counts again', () => { assert.strictEqual(n, 2); });
});
test('callback style', (t, done) => { setTimeout(done, 1); });
`,
  'notes/helper.js': 'throw new Error("node --test must not run this file");',
};

const failing: Record<string, string> = {
  'a.test.js': `
const test = require('node:test');
const assert = require('node:assert');
test('passes', () => {});
test('fails', () => { assert.strictEqual(1, 2); });
test.describe('group', () => {
  test.it('fails inside', () => { throw new Error('inside'); });
  test.it('passes inside', () => {});
});
`,
  'test/crashes.js': 'throw new Error("the whole file fails");',
  'empty.test.js': '// no tests at all',
};

const options: Record<string, string> = {
  'only.test.js': `
const { test, describe, it } = require('node:test');
test.only('runs', () => {});
test('skipped by only', () => { throw new Error('no'); });
describe('suite', { only: true }, () => {
  it.only('inner only', () => {});
  it('inner other', () => { throw new Error('no'); });
});
test('with skip option', { skip: 'not today' }, () => {});
test('todo option', { todo: true }, () => { throw new Error('todo fails'); });
`,
};

const SUMMARY = /^# (tests|suites|pass|fail|cancelled|skipped|todo) \d+$/gm;

function realNode(files: Record<string, string>, flags: string[] = []): { summary: string[]; exitCode: number | null } {
  const dir = mkdtempSync(join(tmpdir(), 'conch-node-test-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  const run = spawnSync(process.execPath, ['--test', ...flags], { cwd: dir, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
  return { summary: run.stdout.match(SUMMARY) ?? [], exitCode: run.status };
}

const cleanups: (() => void)[] = [];
afterAll(() => cleanups.forEach((cleanup) => cleanup()));

describe('node --test', () => {
  const ws = nodeWorkspace();

  async function embedded(files: Record<string, string>, folder: string, flags: string[] = []): Promise<{ summary: string[]; exitCode: number | null; output: string }> {
    await ws.write(Object.fromEntries(Object.entries(files).map(([path, content]) => [`${folder}/${path}`, content])));
    const result = await ws.run(`cd /home/project/${folder} && node --test ${flags.join(' ')}`);
    return { summary: result.output.match(SUMMARY) ?? [], exitCode: result.exitCode, output: result.output };
  }

  it('reports a passing run with the summary lines and exit code real Node gives', async () => {
    const expected = realNode(passing);
    expect(expected.summary).toHaveLength(7);
    const actual = await embedded(passing, 'passing');
    expect(actual.summary).toEqual(expected.summary);
    expect(actual.exitCode).toBe(expected.exitCode);
    expect(actual.output).toMatch(/^TAP version 13\n/);
    expect(actual.output).toMatch(/^ok \d+ - adds$/m);
    expect(actual.output).toContain('# SKIP');
  });

  it('reports failures (a test, a suite, a crashing file, an empty file) as real Node does, and exits 1', async () => {
    const expected = realNode(failing);
    const actual = await embedded(failing, 'failing');
    expect(actual.summary).toEqual(expected.summary);
    expect(actual.exitCode).toBe(expected.exitCode);
    expect(actual.exitCode).toBe(1);
    expect(actual.output).toMatch(/^not ok \d+ - fails$/m);
    expect(actual.output).toContain("code: 'ERR_ASSERTION'");
  });

  it('honours skip, todo and only (with and without --test-only) as real Node does', async () => {
    for (const flags of [[], ['--test-only']]) {
      const expected = realNode(options, flags);
      const actual = await embedded(options, `options${flags.length}`, flags);
      expect(actual.summary).toEqual(expected.summary);
      expect(actual.exitCode).toBe(expected.exitCode);
    }
  });

  it('counts t.assert calls and subtests against t.plan, as real Node does', async () => {
    const planned = {
      'plan.test.js': `
const test = require('node:test');
test('keeps its plan', (t) => { t.plan(3); t.assert.strictEqual(1, 1); t.assert.ok(true); t.test('sub', () => {}); });
test('misses its plan', (t) => { t.plan(2); t.assert.deepStrictEqual([1], [1]); });
test('fails an assertion', (t) => { t.assert.strictEqual(1, 2); });
`,
    };
    const expected = realNode(planned);
    const actual = await embedded(planned, 'planned');
    expect(actual.summary).toEqual(expected.summary);
    expect(actual.exitCode).toBe(1);
    expect(actual.output).toContain('plan expected 2 assertions but received 1');
  });

  it('runs a single test file with plain `node` and prints the report itself', async () => {
    await ws.write({ 'single/one.test.js': failing['a.test.js'] });
    const result = await ws.run('cd /home/project && node single/one.test.js');
    expect(result.exitCode).toBe(1);
    expect(result.output).toMatch(/^TAP version 13\n/);
    expect(result.output).toContain('# tests 4\n# suites 1\n# pass 2\n# fail 2\n');
  });
});
