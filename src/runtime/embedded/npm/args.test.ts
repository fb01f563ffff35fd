import { describe, expect, it } from 'vitest';
import { parseLockfile } from './lockfile';
import { parseNpmArgs } from './args';
import { isModulesLocation, isPackageName } from './package-version';

describe('parseNpmArgs', () => {
  it('reads install with its aliases and save flags, accepting the options that change nothing here', () => {
    expect(parseNpmArgs(['i', '-D', 'tape@^4', '--no-audit', '--loglevel=error', '-E'])).toMatchObject({ kind: 'install', specs: ['tape@^4'], group: 'devDependencies', exact: true, warnings: [] });
    expect(parseNpmArgs(['add', '@scope/pkg', '--registry', 'https://mirror.example/'])).toMatchObject({ kind: 'install', specs: ['@scope/pkg'], registry: 'https://mirror.example/' });
    expect(parseNpmArgs(['install', '--omit=dev', '--frobnicate'])).toMatchObject({ kind: 'install', omitDev: true, warnings: ['npm warn the embedded npm ignores --frobnicate'] });
    expect(parseNpmArgs(['ci', '--offline'])).toMatchObject({ kind: 'ci', offline: true });
    expect(parseNpmArgs(['rm', 'tape'])).toMatchObject({ kind: 'uninstall', names: ['tape'] });
  });

  it('reads run, test and start with the arguments for the script', () => {
    expect(parseNpmArgs(['run', 'build', '--', '--watch', 'x'])).toMatchObject({ kind: 'run', script: 'build', args: ['--watch', 'x'] });
    expect(parseNpmArgs(['t', '--', '--grep', 'one'])).toMatchObject({ kind: 'run', script: 'test', args: ['--grep', 'one'] });
    expect(parseNpmArgs(['test', 'extra'])).toMatchObject({ kind: 'run', script: 'test', args: ['extra'] });
    expect(parseNpmArgs(['run', '-s', 'lint', '--if-present'])).toMatchObject({ kind: 'run', script: 'lint', silent: true, ifPresent: true });
    expect(parseNpmArgs(['run'])).toMatchObject({ kind: 'run', script: undefined });
  });

  it('knows version, help, exec and config get, and names what it does not do', () => {
    expect(parseNpmArgs(['-v'])).toEqual({ kind: 'version' });
    expect(parseNpmArgs([])).toEqual({ kind: 'help' });
    expect(parseNpmArgs(['exec', '--', 'tape', 'a.js'])).toMatchObject({ kind: 'exec', args: ['tape', 'a.js'] });
    expect(parseNpmArgs(['config', 'get', 'registry'])).toEqual({ kind: 'config-get', key: 'registry' });
    expect(parseNpmArgs(['publish'])).toEqual({ kind: 'unsupported', command: 'publish' });
  });
});

describe('names and locations from outside', () => {
  it('accepts package names npm publishes and refuses paths', () => {
    for (const name of ['tape', '@scope/pkg', 'JSONStream', 'lodash.merge', 'a_b-c~d']) expect(isPackageName(name), name).toBe(true);
    for (const name of ['..', '../evil', '.hidden', '@scope/../x', 'a/b', '', 'x'.repeat(215)]) expect(isPackageName(name), name).toBe(false);
    expect(isModulesLocation('node_modules/a/node_modules/@s/b')).toBe(true);
    expect(isModulesLocation('node_modules/../../etc')).toBe(false);
    expect(isModulesLocation('packages/app')).toBe(false);
  });

  it('a lockfile entry whose location climbs out of node_modules is not installed from', () => {
    const lock = parseLockfile(JSON.stringify({
      lockfileVersion: 3,
      packages: {
        '': { dependencies: { a: '1' } },
        'node_modules/a': { version: '1.0.0', resolved: 'https://r/a.tgz' },
        'node_modules/../../home/project/evil': { version: '1.0.0', resolved: 'https://r/e.tgz' },
      },
    }));
    expect(lock.packages.map((p) => p.location)).toEqual(['node_modules/a']);
  });
});
