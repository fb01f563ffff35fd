// The ES-module-to-CommonJS transform, run in Node: the body is evaluated here in the wrapper the guest uses, with a
// tiny module table standing in for the guest's loader.

import { describe, expect, it } from 'vitest';
import { ModuleSyntaxError, transformModule } from './transform';

type Namespace = Record<string, unknown>;

/** Runs `sources[entry]` and what it imports (by exact specifier) as the guest would; returns the entry's exports. */
function run(sources: Record<string, string>, entry: string, log: unknown[] = []): Namespace {
  const done = new Map<string, Namespace>();
  const load = (name: string): Namespace => {
    const known = done.get(name);
    if (known) return known;
    const exports: Namespace = {};
    done.set(name, exports);
    const { code, async, imports = [] } = transformModule(sources[name], `/${name}`, 'module');
    const Body = async ? (Object.getPrototypeOf(async () => {}).constructor as FunctionConstructor) : Function;
    const body = new Body('exports', 'require', '__conchMeta', '__conchImport', '__conchLink', 'console', code) as (...args: unknown[]) => void;
    const meta = { url: `file:///${name}` };
    // Nothing here waits: linking loads the imports, and the async body runs to its end synchronously.
    const link = () => void imports.forEach(load);
    body(exports, load, meta, (specifier: string) => Promise.resolve(load(specifier)), link, { log: (...args: unknown[]) => log.push(...args) });
    return exports;
  };
  return load(entry);
}

describe('transformModule', () => {
  it('turns static imports and exports into CommonJS: named, default, renamed, re-exports and export *', () => {
    const exports = run(
      {
        'a.mjs': "import def, { one as uno } from 'b.mjs';\nimport * as all from 'c.mjs';\nexport { two } from 'c.mjs';\nexport * from 'd.mjs';\nexport default def + uno;\nexport const keys = Object.keys(all).sort();",
        'b.mjs': 'export default 10;\nexport const one = 1;',
        'c.mjs': 'export const two = 2;\nexport const three = 3;',
        'd.mjs': 'export const four = 4;\nexport default "not re-exported";',
      },
      'a.mjs',
    );
    expect({ ...exports }).toEqual({ default: 11, keys: ['three', 'two'], two: 2, four: 4 });
  });

  it('keeps live bindings of exported lets as sucrase gives them', () => {
    const log: unknown[] = [];
    run({ 'a.mjs': "import { count, bump } from 'b.mjs';\nbump(); console.log(count);", 'b.mjs': 'export let count = 0;\nexport function bump() { count += 1; }' }, 'a.mjs', log);
    expect(log).toEqual([1]);
  });

  it('replaces import.meta and import() by the wrapper parameters, and finds top-level await', () => {
    const result = transformModule("const m = await import('./x.js');\nconsole.log(import.meta.url);", '/a.mjs', 'module');
    expect(result.async).toBe(true);
    expect(result.code).toContain("await __conchImport('./x.js')");
    expect(result.code).toContain('__conchMeta.url');
    expect(result.code).not.toMatch(/\bimport\b/);
  });

  it('does not take await inside functions, or await as a property or key, for top-level await', () => {
    for (const source of ['async function f() { await g(); }', 'const f = async () => { await g(); };', 'const o = { await: 1 }; o.await;', 'class A { async m() { await 1; } }']) {
      expect(transformModule(source, '/a.mjs', 'module').async, source).toBe(false);
    }
    expect(transformModule('for await (const x of xs) {}', '/a.mjs', 'module').async).toBe(true);
  });

  it('never rewrites inside strings, comments, template literals or regular expressions', () => {
    const source = "const s = \"import('a') import.meta\";\n// import('b')\n/* import.meta */\nconst t = `import('c') ${1}`;\nconst r = /import\\(/;\nexport { s, t, r };";
    const { code } = transformModule(source, '/a.mjs', 'module');
    for (const kept of ["\"import('a') import.meta\"", "// import('b')", '/* import.meta */', "`import('c') ${1}`", '/import\\(/']) expect(code).toContain(kept);
    expect(code).not.toContain('__conch');
  });

  it('keeps every line where it was', () => {
    const source = "import a from 'a';\n\nimport {\n  b,\n} from 'b';\nexport const x = 1;\nconsole.log(import\n  .meta.url, a, b);\nthrow new Error('line 9');";
    const code = transformModule(source, '/a.mjs', 'module').code;
    const lines = code.split('\n');
    expect(lines.length).toBe(source.split('\n').length);
    expect(lines[8]).toContain("throw new Error('line 9')");
  });

  it("hides the module's own require and exports names, so a createRequire'd require works", () => {
    const log: unknown[] = [];
    run(
      {
        'a.mjs': "import { make } from 'b.mjs';\nconst require = make();\nconst { exports } = { exports: 'mine' };\nconsole.log(require('x'), exports, typeof module);\nexport { require, exports };",
        'b.mjs': 'export const make = () => (id) => `required ${id}`;',
      },
      'a.mjs',
      log,
    );
    expect(log).toEqual(['required x', 'mine', 'undefined']);
  });

  it('lists the names each import statement takes, with its line, for JavaScript (not TypeScript, whose types vanish)', () => {
    const source = "import d, { a, b as c } from './x.js';\nimport * as ns from 'y';\nimport e, * as n2 from 'z';\nimport 'side';\nimport { 'str' as s } from 'q';";
    expect(transformModule(source, '/a.mjs', 'module').bindings).toEqual([
      { specifier: './x.js', name: 'default', line: 1 },
      { specifier: './x.js', name: 'a', line: 1 },
      { specifier: './x.js', name: 'b', line: 1 },
      { specifier: 'z', name: 'default', line: 3 },
      { specifier: 'q', name: 'str', line: 5 },
    ]);
    expect(transformModule("import { T } from './types';\nexport const x: T = 1;", '/a.mts', 'module').bindings).toBeUndefined();
  });

  it("leaves names that are Object.prototype's (toString, constructor) alone", () => {
    const source = 'const toString = Object.prototype.toString;\nexport function constructor() {}\nexport const hasOwnProperty = toString;';
    const exports = run({ 'a.mjs': source }, 'a.mjs');
    expect(exports.hasOwnProperty).toBe(Object.prototype.toString);
    expect(typeof exports.constructor).toBe('function');
  });

  it('strips TypeScript in the same pass, leaving import() types alone', () => {
    const { code } = transformModule("import type { T } from './t';\ntype U = import('./u').U;\nexport const n: number = (1 as number);\nexport function f(t: T): U { return t as U; }", '/a.mts', 'module');
    expect(code).not.toMatch(/number|import|: T/);
    expect(code.split('\n').length).toBe(4);
  });

  it('rewrites only import() and import.meta in a CommonJS file, and leaves one that uses neither untouched', () => {
    const source = "const path = require('path');\nmodule.exports = () => import('./esm.mjs');\n";
    expect(transformModule(source, '/a.cjs', 'commonjs')).toEqual({ code: source.replace("import('", "__conchImport('"), async: false });
    const plain = "module.exports = { importer: 1, 'import(': 2 };";
    expect(transformModule(plain, '/b.cjs', 'commonjs')).toEqual({ code: plain, async: false });
  });

  it('binds exported functions, then links the imports, before the body runs (an import cycle can call them), in one line', () => {
    const { code } = transformModule('console.log(1);\nexport function a() {}\nexport default async function b() {}\nif (x) { function inner() {} }', '/a.mjs', 'module');
    const firstLine = code.split('\n')[0];
    expect(firstLine.startsWith('"use strict";exports.a = a; exports.default = b;')).toBe(true);
    const linked = transformModule("import x from './x.mjs';\nexport function f() { return x; }", '/b.mjs', 'module');
    expect(linked).toMatchObject({ async: true, imports: ['./x.mjs'] });
    expect(linked.code.split('\n')[0]).toMatch(/^"use strict";exports\.f = f; const __conchLinked = __conchLink\(\); if \(__conchLinked\) await __conchLinked;/);
    expect(code).not.toContain('exports.inner');
    expect(code.split('\n').length).toBe(4);
  });

  it("patches sucrase's export * helper: a null-prototype namespace, and the module's own exports win", () => {
    const { code } = transformModule("export * from './b.mjs';", '/a.mjs', 'module');
    expect(code).toContain('Object.prototype.hasOwnProperty.call(exports, key)');
    const exports = run({ 'a.mjs': "export * from 'b.mjs';\nexport const own = 1;", 'b.mjs': 'export const own = 2;\nexport const other = 3;' }, 'a.mjs');
    expect({ ...exports }).toEqual({ own: 1, other: 3 });
  });

  it("rewrites import() even in a sloppy-mode CommonJS file sucrase cannot parse, and leaves it be where there is none outside strings", () => {
    const source = "with (Math) { module.exports = () => import('./x.mjs'); }";
    expect(transformModule(source, '/a.cjs', 'commonjs')).toEqual({ code: "with (Math) { module.exports = () => __conchImport('./x.mjs'); }", async: false });
    const mentions = "// import('in a comment')\nmodule.exports = 'import(' + `import.meta ${1}`;\n";
    expect(transformModule(mentions, '/b.cjs', 'commonjs')).toEqual({ code: mentions, async: false });
  });

  describe("an installed package's module with no static imports (the lexer's path, no parse)", () => {
    const bundle = "var a = 1;\nfunction f() { return a; }\nconst require = 'mine';\nconst seen = [typeof exports, require];\nexport { a as default, f as fn, seen };\n";

    it('binds the clause and declarations as live exports, with require and exports hidden as in Node', () => {
      const { code, async } = transformModule(bundle, '/node_modules/p/index.mjs', 'module');
      expect(async).toBe(false);
      expect(code).not.toContain('__esModule'); // sucrase's output says so: this one was not parsed
      expect({ ...run({ 'node_modules/p/index.mjs': bundle }, 'node_modules/p/index.mjs') }).toEqual({ default: 1, fn: expect.any(Function), seen: ['undefined', 'mine'] });
      const declared = 'export let n = 0;\nexport function bump() { n++; }\nexport default function named() { return n; }\nexport const { x, y } = { x: 1, y: 2 };';
      const exports = run({ 'node_modules/q/a.mjs': declared }, 'node_modules/q/a.mjs');
      (exports.bump as () => void)();
      expect({ n: exports.n, x: exports.x, y: exports.y, name: (exports.default as () => number).name, value: (exports.default as () => number)() }).toEqual({ n: 1, x: 1, y: 2, name: 'named', value: 1 });
    });

    it('keeps every line, replaces import() and import.meta, and runs synchronously unless the top level awaits', () => {
      const source = "#!/usr/bin/env node\nconst m = () => import('./x.js');\nexport async function g() { await 1; }\nexport const url = import.meta.url;\nthrow new Error('line 5');";
      const { code, async } = transformModule(source, '/node_modules/p/b.mjs', 'module');
      expect(code.split('\n')[4]).toContain("throw new Error('line 5')");
      expect(code).toContain("__conchImport('./x.js')");
      expect(code).not.toMatch(/\bimport\b/);
      expect(async).toBe(true);
      const ran = run({ 'node_modules/p/c.mjs': 'export async function g() { await 1; }\nexport const done = true;' }, 'node_modules/p/c.mjs');
      expect(ran.done).toBe(true); // the body finished before run() returned: nothing at its top level waited
    });

    it('leaves to the full transform a static import, a default export of an expression, `export {}`, and the project\'s own files', () => {
      for (const source of ["import x from 'y';\nexport { x };", 'export default 5;', 'var a;\nexport {};']) {
        expect(transformModule(source, '/node_modules/p/d.mjs', 'module').code, source).toContain('"use strict"');
        expect(transformModule(source, '/node_modules/p/d.mjs', 'module').code, source).not.toContain('__conchExports');
      }
      expect(transformModule(bundle, '/src/index.mjs', 'module').code).not.toContain('__conchExports');
    });
  });

  it('reports a syntax error with Node-like text and its position', () => {
    let caught: unknown;
    try {
      transformModule('const ok = 1;\nconst = 2;', '/bad.mjs', 'module');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ModuleSyntaxError);
    expect(caught).toMatchObject({ name: 'SyntaxError', message: 'Unexpected token', line: 2 });
  });
});
