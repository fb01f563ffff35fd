import { describe, expect, it } from 'vitest';
import { Resolver, type ResolverFs } from './resolve';

function fsOf(files: Record<string, string>): ResolverFs {
  const dirs = new Set<string>(['/']);
  for (const path of Object.keys(files)) {
    for (let at = path.lastIndexOf('/'); at > 0; at = path.lastIndexOf('/', at - 1)) dirs.add(path.slice(0, at));
  }
  return {
    kind: (path) => (path in files ? 'file' : dirs.has(path) ? 'dir' : undefined),
    readText: (path) => {
      if (!(path in files)) throw new Error(`ENOENT ${path}`);
      return files[path];
    },
  };
}

const resolver = new Resolver(
  fsOf({
    '/p/src/a.js': '',
    '/p/src/b.ts': '',
    '/p/src/dir/index.js': '',
    '/p/package.json': JSON.stringify({ name: 'self', type: 'module', exports: { '.': './src/a.js', './b': './src/b.ts' }, imports: { '#internal/*': './src/dir/*.js' } }),
    '/p/node_modules/@scope/pkg/package.json': JSON.stringify({ name: '@scope/pkg', exports: { '.': { node: { import: './m.mjs', require: './c.cjs' } }, './features/*.js': './lib/*.js', './private/*': null } }),
    '/p/node_modules/@scope/pkg/m.mjs': '',
    '/p/node_modules/@scope/pkg/c.cjs': '',
    '/p/node_modules/@scope/pkg/lib/x.js': '',
    '/node_modules/legacy/package.json': JSON.stringify({ main: './main' }),
    '/node_modules/legacy/main.js': '',
    '/node_modules/legacy/extra/index.json': '{}',
    '/p/cjs/plain.js': 'module.exports = 1',
    '/p/cjs/package.json': '{}',
    '/p/cjs/esm-syntax.js': "import x from 'y';",
  }),
);

describe('Resolver', () => {
  it('resolves relative requests with extensions and folder indexes for require, exactly for import', () => {
    expect(resolver.resolve('./a', '/p/src', 'require', 'r')).toBe('/p/src/a.js');
    expect(resolver.resolve('./dir', '/p/src', 'require', 'r')).toBe('/p/src/dir/index.js');
    expect(resolver.resolve('./a.js', '/p/src', 'import', 'r')).toBe('/p/src/a.js');
    expect(resolver.resolve('./b.js', '/p/src', 'import', 'r')).toBe('/p/src/b.ts');
    expect(() => resolver.resolve('./a', '/p/src', 'import', '/p/src/main.js')).toThrow(expect.objectContaining({ code: 'ERR_MODULE_NOT_FOUND' }));
    expect(() => resolver.resolve('./dir', '/p/src', 'import', 'r')).toThrow(expect.objectContaining({ code: 'ERR_UNSUPPORTED_DIR_IMPORT' }));
  });

  it('follows exports conditions (nested), subpath patterns and null targets', () => {
    expect(resolver.resolve('@scope/pkg', '/p/src', 'import', 'r')).toBe('/p/node_modules/@scope/pkg/m.mjs');
    expect(resolver.resolve('@scope/pkg', '/p/src', 'require', 'r')).toBe('/p/node_modules/@scope/pkg/c.cjs');
    expect(resolver.resolve('@scope/pkg/features/x.js', '/p/src', 'require', 'r')).toBe('/p/node_modules/@scope/pkg/lib/x.js');
    expect(() => resolver.resolve('@scope/pkg/private/y', '/p', 'require', 'r')).toThrow(expect.objectContaining({ code: 'ERR_PACKAGE_PATH_NOT_EXPORTED' }));
    expect(() => resolver.resolve('@scope/pkg/c.cjs', '/p', 'require', 'r')).toThrow(expect.objectContaining({ code: 'ERR_PACKAGE_PATH_NOT_EXPORTED' }));
  });

  it('looks up node_modules up to the root, with main and index fallbacks, self-references and #imports', () => {
    expect(resolver.resolve('legacy', '/p/src/dir', 'require', 'r')).toBe('/node_modules/legacy/main.js');
    expect(resolver.resolve('legacy/extra', '/p', 'require', 'r')).toBe('/node_modules/legacy/extra/index.json');
    expect(resolver.resolve('self/b', '/p/src', 'import', 'r')).toBe('/p/src/b.ts');
    expect(resolver.resolve('#internal/index', '/p/src', 'import', 'r')).toBe('/p/src/dir/index.js');
    expect(() => resolver.resolve('absent', '/p', 'require', '/p/x.js')).toThrow("Cannot find module 'absent'\nRequire stack:\n- /p/x.js");
  });

  it('tells each file format by extension, package type, or import/export syntax', () => {
    expect(resolver.formatOf('/p/src/a.js')).toBe('module');
    expect(resolver.formatOf('/p/node_modules/@scope/pkg/c.cjs')).toBe('commonjs');
    expect(resolver.formatOf('/p/cjs/plain.js')).toBe('commonjs');
    expect(resolver.formatOf('/p/cjs/esm-syntax.js')).toBe('module');
    expect(resolver.formatOf('/node_modules/legacy/extra/index.json')).toBe('json');
  });
});
