// Loading modules inside the guest. CommonJS: Node's wrapper function (exports, require, module, __filename,
// __dirname), require.cache, JSON. ES modules: QuickJS's own module loader, fed by resolveModule/loadModule; a core
// module or a CommonJS file imported from ESM gets a small facade module re-exporting its exports by name.

import { host } from '../host';
import type { Builtins } from './builtins';
import { dirname, ResolveError, Resolver, type ResolverFs } from './resolve';
import { nodeError } from '../node-error';

export const CJS_WRAPPER_HEAD = '(function (exports, require, module, __filename, __dirname) { ';
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const RESERVED = new Set(
  'break case catch class const continue debugger default delete do else enum export extends false finally for function if implements import in instanceof interface let new null package private protected public return static super switch this throw true try typeof var void while with yield await'.split(' '),
);
const FACADE_KEY = Symbol.for('conch.facade');

/**
 * In 'transform' mode (EngineJob.modules): a CommonJS file's source with import() and import.meta rewritten, and the
 * wrapper's extra parameters (names and values) they now refer to; undefined when the file uses neither.
 */
export type CommonJsRewrite = (filename: string, source: string) => { code: string; params: string[]; args: unknown[] } | undefined;

export type RequireFunction = ((request: string) => unknown) & {
  resolve: ((request: string) => string) & { paths: (request: string) => string[] | null };
  cache: Record<string, CommonJsModule>;
  main: CommonJsModule | undefined;
};

export class CommonJsModule {
  exports: unknown = {};
  loaded = false;
  readonly children: CommonJsModule[] = [];
  readonly paths: string[];
  require!: RequireFunction;
  constructor(
    readonly id: string,
    readonly filename: string,
    readonly parent: CommonJsModule | undefined,
  ) {
    this.paths = nodeModulesPaths(dirname(filename));
  }
  get path(): string {
    return dirname(this.filename);
  }
}

export class ModuleSystem {
  readonly cache: Record<string, CommonJsModule> = {};
  readonly resolver: Resolver;
  main: CommonJsModule | undefined;
  /** ES module sources that are not files: `node -e --input-type=module`, keyed by module name. */
  private readonly inlineModules = new Map<string, string>();
  private readonly facades = new Map<string, unknown>();
  /** Set in 'transform' mode. */
  rewriteCommonJs: CommonJsRewrite | undefined;

  constructor(
    private readonly builtins: Builtins,
    private readonly fs: ResolverFs,
    private readonly cwd: () => string,
  ) {
    this.resolver = new Resolver(fs);
    (globalThis as unknown as Record<symbol, unknown>)[FACADE_KEY] = (name: string) => this.facades.get(name);
  }

  /** A `require` for code in `filename` (a real file, or e.g. /cwd/[eval]). */
  createRequire(filename: string, parent?: CommonJsModule): RequireFunction {
    const fromDir = dirname(filename);
    const require = ((request: string) => this.require(request, fromDir, filename, parent)) as RequireFunction;
    const resolve = ((request: string) => (this.builtins.has(request) ? request : this.resolver.resolve(request, fromDir, 'require', filename))) as RequireFunction['resolve'];
    resolve.paths = (request: string) => (this.builtins.has(request) ? null : nodeModulesPaths(fromDir));
    require.resolve = resolve;
    require.cache = this.cache;
    require.main = this.main;
    return require;
  }

  /** Runs a CommonJS file as the main module. */
  runMain(filename: string): void {
    const module = new CommonJsModule('.', filename, undefined);
    this.main = module;
    this.cache[filename] = module;
    this.loadCommonJs(module);
  }

  /** Registers an ES module whose source is not a file (e.g. `node --input-type=module -e`). */
  addInlineModule(name: string, source: string): void {
    this.inlineModules.set(name, source);
  }

  require(request: string, fromDir: string, referrer: string, parent?: CommonJsModule): unknown {
    if (typeof request !== 'string') {
      throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "id" argument must be of type string. Received ${request === null ? 'null' : typeof request}`);
    }
    if (this.builtins.has(request)) return this.builtins.load(request);
    const filename = this.resolveOrThrow(request, fromDir, 'require', referrer);
    const cached = this.cache[filename];
    if (cached) return cached.exports;
    if (filename.endsWith('.node')) {
      throw nodeError(Error, 'ERR_CONCH_UNAVAILABLE', `${filename} is a native addon; native modules are not available in Conch's embedded runtime; use the WebContainer runtime for it`);
    }
    const format = this.resolver.formatOf(filename);
    if (format === 'module') {
      throw nodeError(
        Error,
        'ERR_REQUIRE_ESM',
        `require() of ES Module ${filename} from ${referrer} not supported.\nInstead change the require of ${filename} to a dynamic import() which is available in all CommonJS modules.`,
      );
    }
    const module = new CommonJsModule(filename, filename, parent);
    parent?.children.push(module);
    this.cache[filename] = module;
    try {
      if (format === 'json') module.exports = parseJson(this.fs.readText(filename), filename);
      else this.loadCommonJs(module);
    } catch (error) {
      delete this.cache[filename];
      throw error;
    }
    return module.exports;
  }

  private loadCommonJs(module: CommonJsModule): void {
    const raw = this.rawSourceOf(module.filename);
    const rewrite = this.rewriteCommonJs?.(module.filename, raw);
    const head = rewrite ? CJS_WRAPPER_HEAD.replace(') {', `, ${rewrite.params.join(', ')}) {`) : CJS_WRAPPER_HEAD;
    const source = rewrite ? rewrite.code : withoutTypes(raw, module.filename);
    const wrapper = host.compile(`${head}${source}\n})`, module.filename) as (...args: unknown[]) => void;
    module.require = this.createRequire(module.filename, module);
    wrapper.call(module.exports, module.exports, module.require, module, module.filename, dirname(module.filename), ...(rewrite?.args ?? []));
    module.loaded = true;
  }

  /** A file's JavaScript: the shebang line blanked, TypeScript stripped of its types. */
  sourceOf(filename: string): string {
    return withoutTypes(this.rawSourceOf(filename), filename);
  }

  /** A file's source as written (TypeScript too), the shebang line blanked. */
  rawSourceOf(filename: string): string {
    const source = this.fs.readText(filename);
    return source.startsWith('#!') ? `//${source.slice(2)}` : source;
  }

  /** The source of an ES module registered with addInlineModule. */
  inlineSource(name: string): string | undefined {
    return this.inlineModules.get(name);
  }

  private resolveOrThrow(request: string, fromDir: string, mode: 'require' | 'import', referrer: string): string {
    try {
      return this.resolver.resolve(request, fromDir, mode, referrer);
    } catch (error) {
      if (error instanceof ResolveError) {
        const failure = nodeError(Error, error.code, error.message) as unknown as Error & Record<string, unknown>;
        if (error.code === 'MODULE_NOT_FOUND') failure.requireStack = [referrer];
        throw failure;
      }
      throw error;
    }
  }

  // ---- ES modules (QuickJS's loader calls these through the engine) ----

  /** The module name `request` names from the module `base` (a file URL, a path, or a script's name). */
  resolveModule(base: string, request: string): string {
    if (this.builtins.has(request)) return `node:${request.replace(/^node:/, '')}`;
    if (this.inlineModules.has(request)) return request;
    const referrer = base.startsWith('file://') ? fileOf(base) : base.startsWith('/') ? base : `${this.cwd()}/[eval]`;
    const fromDir = dirname(referrer);
    // A query or fragment (ESLint's `?mtime=` on its config) names another instance of the same file, as in Node.
    const suffix = /^(file:|\.{0,2}\/)/.test(request) ? (/[?#].*$/.exec(request)?.[0] ?? '') : '';
    const path = request.slice(0, request.length - suffix.length);
    return `file://${this.resolveOrThrow(path, fromDir, 'import', base.startsWith('/') || base.startsWith('file://') ? base : referrer)}${suffix}`;
  }

  /** The ES module source for a name resolveModule returned. */
  loadModule(name: string): string {
    if (name.startsWith('node:')) {
      const exports = this.builtins.load(name);
      return this.facade(name, exports);
    }
    const inline = this.inlineModules.get(name);
    if (inline !== undefined) return withImportMeta(name, inline);
    const filename = fileOf(name);
    const format = this.resolver.formatOf(filename);
    if (format === 'json') return `export default ${JSON.stringify(parseJson(this.fs.readText(filename), filename))};`;
    if (format === 'commonjs') {
      const exports = this.require(filename, dirname(filename), filename);
      return this.facade(name, exports);
    }
    return withImportMeta(name, this.sourceOf(filename));
  }

  /** An ES module re-exporting `exports`: `default` is the whole object, and each identifier key by name. */
  private facade(name: string, exports: unknown): string {
    this.facades.set(name, exports);
    const keys =
      exports !== null && (typeof exports === 'object' || typeof exports === 'function')
        ? Object.keys(exports).filter((key) => IDENTIFIER.test(key) && !RESERVED.has(key))
        : [];
    const access = `globalThis[Symbol.for('conch.facade')](${JSON.stringify(name)})`;
    const named = keys.length ? `export const { ${keys.join(', ')} } = __exports;` : '';
    return `const __exports = ${access}; export default __exports; ${named}`;
  }
}

/** The module source with import.meta's Node fields set, on its first line so every other line keeps its number. */
function withImportMeta(name: string, source: string): string {
  const filename = name.startsWith('file://') ? fileOf(name) : name;
  const meta = `import.meta.url = ${JSON.stringify(name)}; import.meta.filename = ${JSON.stringify(filename)}; import.meta.dirname = ${JSON.stringify(dirname(filename))}; import.meta.resolve = (s) => globalThis[Symbol.for('conch.resolve')](${JSON.stringify(name)}, s);`;
  return `${meta}${source}`;
}

/** JavaScript from a file's source: TypeScript stripped of its types, lines kept. */
function withoutTypes(source: string, filename: string): string {
  return /\.[cm]?ts$/.test(filename) ? host.stripTypes(source, filename) : source;
}

/** The path a file: module name stands for, without its query or fragment. */
export function fileOf(name: string): string {
  return decodeURIComponent(name.slice('file://'.length).replace(/[?#].*$/, ''));
}

export function parseJson(text: string, filename: string): unknown {
  try {
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    throw nodeError(SyntaxError, 'ERR_INVALID_JSON', `${filename}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function nodeModulesPaths(fromDir: string): string[] {
  const paths: string[] = [];
  for (let dir = fromDir; ; dir = dirname(dir)) {
    if (!dir.endsWith('/node_modules')) paths.push(`${dir === '/' ? '' : dir}/node_modules`);
    if (dir === '/') return paths;
  }
}
