// The compat runner on two packages of the corpus, both sides: isarray (a tape suite, counted from its TAP summary)
// and inherits (a plain assert script, no counts), then a package.json the runner adjusts as its header says.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureRegistry, type FixtureRegistry } from '../../src/runtime/embedded/npm/testing/fixture-registry';
import { CORPUS_REGISTRY, projectFiles, runPackage } from './compat-runner';
import { readCorpus } from './corpus';
import { parseTestCounts } from './test-counts';

let registry: FixtureRegistry;
beforeAll(async () => {
  registry = await startFixtureRegistry({ folders: [CORPUS_REGISTRY] });
});
afterAll(() => registry.close());

const entry = (name: string) => readCorpus().find((candidate) => candidate.name === name)!;

describe('the compat runner', () => {
  it('runs a tape suite on both sides and compares the counts', async () => {
    const result = await runPackage(entry('isarray'), { registryUrl: registry.url });
    expect(result.embedded).toMatchObject({ passed: true, stage: 'test', counts: { pass: 6, fail: 0 } });
    expect(result.node).toMatchObject({ passed: true, stage: 'test', counts: { pass: 6, fail: 0 } });
    expect(result.matches).toBe(true);
    expect(result.why).toBeNull();
  }, 60_000);

  it('runs a plain assert script: no counts, the exit code decides', async () => {
    const result = await runPackage(entry('inherits'), { registryUrl: registry.url });
    expect(result.embedded).toMatchObject({ passed: true, counts: null });
    expect(result.node).toMatchObject({ passed: true, counts: null });
    expect(result.matches).toBe(true);
  }, 60_000);

  it("installs the corpus's test tools instead of the declared ones and runs its test command", async () => {
    const { files } = await projectFiles(entry('minimist'));
    const manifest = JSON.parse(new TextDecoder().decode(files['package.json']));
    expect(manifest.devDependencies).toEqual({ tape: '4.0.0' });
    expect(manifest.scripts.test).toBe('tape test/*.js');
    expect(new TextDecoder().decode(files['index.js'])).toContain('module.exports'); // the code as published
    expect((await projectFiles(entry('command-exists'))).executables).toContain('test/executable-script.js');
  });
});

describe('test counts', () => {
  it("sums TAP summaries and reads mocha's", () => {
    expect(parseTestCounts('# tests 3\n# pass  3\n\n# ok\n# tests 2\n# pass  1\n# fail  1\n')).toEqual({ pass: 4, fail: 1 });
    expect(parseTestCounts('\n  12 passing (30ms)\n  2 failing\n')).toEqual({ pass: 12, fail: 2 });
    expect(parseTestCounts('ok\n')).toBeNull();
  });
});
