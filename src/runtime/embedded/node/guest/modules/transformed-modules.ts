// ES modules on an engine with no module loader (EngineJob.modules 'transform'): the host turns each ES module into
// a CommonJS body (module-transform/), run here in a wrapper with import.meta and import() as parameters. Module
// records are keyed by module name (a file URL with its query, as resolveModule gives it), apart from require.cache,
// as in Node. An import of CommonJS, JSON or a core module gives Node's namespace: default is module.exports, and
// each identifier key is a named export.
//
// Top-level await: a module runs once the modules it imports statically have settled, and import() waits for the
// module it loads, as in Node; an entry whose await never settles ends the process with code 13.

import { host } from '../host';
import { mayUseImport, MODULE_TRANSFORM_OP, type ModuleFormat, type TransformedModule } from '../../module-transform/messages';
import type { Builtins } from './builtins';
import { fileOf, parseJson, type ModuleSystem } from './modules';
import { dirname } from './resolve';

type Namespace = Record<string, unknown>;
/** `linking`: its imports are loading; `waiting`: on a top-level await (its own or an import's); `done`: it ran. */
type EsModule = { exports: Namespace; evaluated: Promise<void>; state: 'linking' | 'waiting' | 'done' };

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

export class TransformedModules {
  private readonly esModules = new Map<string, EsModule>();
  private readonly namespaces = new Map<string, Namespace>();
  /** The main module is still waiting on a top-level await (the process exits with 13 if the loop empties). */
  mainPending = false;

  constructor(
    private readonly modules: ModuleSystem,
    private readonly builtins: Builtins,
  ) {
    modules.rewriteCommonJs = (filename, source) => {
      if (!mayUseImport(source)) return undefined;
      const { code } = transform(source, filename, 'commonjs');
      return { code, params: ['__conchMeta', '__conchImport'], args: [this.meta(`file://${filename}`), this.importFrom(filename)] };
    };
  }

  /** Runs the main module (`node file.mjs`, `--input-type=module`); its failure, even after an await, is reported. */
  runMain(name: string, uncaught: (error: unknown) => void): void {
    this.mainPending = true;
    this.dynamicImport(name).then(
      () => {
        this.mainPending = false;
      },
      (error: unknown) => {
        this.mainPending = false;
        uncaught(error);
      },
    );
  }

  /**
   * `node -e` code (a script, so it cannot take wrapper parameters): rewritten when it may use import(), with the
   * names the rewrite refers to defined on `global`, not enumerable.
   */
  prepareScript(code: string, name: string, global: Record<string, unknown>): string {
    if (!mayUseImport(code)) return code;
    Object.defineProperty(global, '__conchImport', { value: this.importFrom(name), configurable: true, writable: true });
    Object.defineProperty(global, '__conchMeta', { value: this.meta(name), configurable: true, writable: true });
    return transform(code, name, 'commonjs').code;
  }

  /** import() from code in `referrer` (a module name, a file path, or a script's name such as /cwd/[eval]). */
  importFrom(referrer: string): (specifier: unknown) => Promise<Namespace> {
    return (specifier) => Promise.resolve().then(() => this.dynamicImport(this.modules.resolveModule(referrer, String(specifier))));
  }

  /** The namespace of module `name` once it and what it imports have run. */
  private async dynamicImport(name: string): Promise<Namespace> {
    const namespace = this.importNow(name);
    const module = this.esModules.get(name);
    if (module) await module.evaluated;
    return namespace;
  }

  /** The namespace of module `name`, loading and running it first if it is new. */
  private importNow(name: string): Namespace {
    const known = this.esModules.get(name);
    if (known) return known.exports;
    if (name.startsWith('node:')) return this.namespaceOf(name, () => this.builtins.load(name));
    const inline = this.modules.inlineSource(name);
    if (inline !== undefined) return this.evaluate(name, inline, '[eval1]');
    const filename = fileOf(name);
    switch (this.modules.resolver.formatOf(filename)) {
      case 'json':
        return this.namespaceOf(name, () => parseJson(this.modules.rawSourceOf(filename), filename), { defaultOnly: true });
      case 'commonjs':
        return this.namespaceOf(name, () => this.modules.require(filename, dirname(filename), filename));
      case 'module':
        return this.evaluate(name, this.modules.rawSourceOf(filename), filename);
    }
  }

  /**
   * Links and runs an ES module: its body first calls __conchLink, which loads (and runs) its static imports, as in
   * Node, and hands back a promise to await when one of them is still on a top-level await. The record exists before
   * anything runs, so an import cycle sees it (and does not wait on it).
   */
  private evaluate(name: string, source: string, filename: string): Namespace {
    const { code, async, imports = [], bindings = [], getterExports = false } = transform(source, filename, 'module');
    const exports = getterExports ? namespaceOfGetters() : emptyNamespace();
    // Before the body says so itself: an importer in a cycle may read it while this module links.
    Object.defineProperty(exports, '__esModule', { value: true });
    const module: EsModule = { exports, evaluated: Promise.resolve(), state: 'linking' };
    this.esModules.set(name, module);
    // Resolved from the file's path, not its URL: Node's errors say "imported from /path/to/file.mjs".
    const referrer = name.startsWith('file://') ? fileOf(name) : name;
    const link = (): Promise<unknown> | undefined => {
      const waiting: Promise<void>[] = [];
      for (const specifier of imports) {
        const dependency = this.modules.resolveModule(referrer, specifier);
        this.importNow(dependency);
        const record = this.esModules.get(dependency);
        if (record?.state === 'waiting') waiting.push(record.evaluated);
        // Node finds a missing export before anything runs; here an ES module's exports are known once it has run.
        const missing = record?.state === 'done' ? bindings.find((binding) => binding.specifier === specifier && !(binding.name in record.exports)) : undefined;
        if (missing) throw missingExport(missing, name);
      }
      return waiting.length ? Promise.all(waiting) : undefined;
    };
    let finished = false;
    const head = `(${async ? 'async ' : ''}function (exports, require, __conchMeta, __conchImport, __conchLink, __conchDone) { `;
    try {
      const body = host.compile(`${head}${code}\n;__conchDone(); })`, name) as (...args: unknown[]) => unknown;
      const require = (specifier: string) => this.importNow(this.modules.resolveModule(referrer, specifier));
      const result = body.call(undefined, exports, require, this.meta(name), this.importFrom(referrer), link, () => (finished = true));
      if (finished) {
        // It ran to its end without waiting (an async body too, until its first await): done, as a sync graph is in Node.
        sortKeys(exports);
        module.state = 'done';
      } else {
        module.state = 'waiting';
        module.evaluated = (result as Promise<void>).then(() => sortKeys(exports));
        module.evaluated.then(
          () => (module.state = 'done'),
          () => (module.state = 'done'),
        );
      }
    } catch (error) {
      this.esModules.delete(name);
      throw error;
    }
    return exports;
  }

  /** import.meta for module `name`. */
  private meta(name: string): Record<string, unknown> {
    const filename = name.startsWith('file://') ? fileOf(name) : name;
    return { url: name, filename, dirname: dirname(filename), resolve: (specifier: unknown) => this.modules.resolveModule(name, String(specifier)) };
  }

  /** Node's namespace of a module that is not an ES module, made once per name (so `import *` gives one object). */
  private namespaceOf(name: string, load: () => unknown, { defaultOnly = false } = {}): Namespace {
    const known = this.namespaces.get(name);
    if (known) return known;
    const value = load();
    const namespace = emptyNamespace();
    // The transformed importer takes a namespace as it is when it says __esModule (sucrase's interop).
    Object.defineProperty(namespace, '__esModule', { value: true });
    const keys = !defaultOnly && value !== null && (typeof value === 'object' || typeof value === 'function') ? Object.keys(value).filter((key) => IDENTIFIER.test(key)) : [];
    // A namespace's keys are sorted, as Node's are.
    for (const key of [...new Set([...keys, 'default'])].sort()) namespace[key] = key === 'default' ? value : (value as Namespace)[key];
    this.namespaces.set(name, namespace);
    return namespace;
  }
}

/** An object that prints as Node prints a module namespace: `[Module: null prototype] { ... }`. */
function emptyNamespace(): Namespace {
  const namespace = Object.create(null) as Namespace;
  Object.defineProperty(namespace, Symbol.toStringTag, { value: 'Module' });
  return namespace;
}

/**
 * A namespace whose body defines its exports as getters (live bindings) on the target: each shows as the value it
 * holds, as an export does in Node's namespace (inspected, spread, or read by descriptor), not as [Getter]. Only the
 * descriptor is trapped: a read goes straight to the getter.
 */
function namespaceOfGetters(): Namespace {
  return new Proxy(emptyNamespace(), {
    getOwnPropertyDescriptor(target, key) {
      const descriptor = Reflect.getOwnPropertyDescriptor(target, key);
      if (!descriptor?.get) return descriptor;
      let value: unknown;
      try {
        value = descriptor.get();
      } catch {
        value = undefined; // a binding still in its temporal dead zone (Node shows <uninitialized>)
      }
      return { value, writable: true, enumerable: descriptor.enumerable, configurable: true };
    },
  });
}

/** Puts a namespace's keys in sorted order, as Node's are (sucrase defines them in the order of the source). */
function sortKeys(namespace: Namespace): void {
  const keys = Object.keys(namespace);
  const sorted = [...keys].sort();
  if (keys.every((key, index) => key === sorted[index])) return;
  const descriptors = Object.getOwnPropertyDescriptors(namespace);
  for (const key of sorted) {
    if (!descriptors[key].configurable) continue;
    delete namespace[key];
    Object.defineProperty(namespace, key, descriptors[key]);
  }
}

/** Node's error for an import of a name the module does not export, pointing at the import statement. */
function missingExport(binding: { specifier: string; name: string; line: number }, importer: string): SyntaxError {
  const error = new SyntaxError(`The requested module '${binding.specifier}' does not provide an export named '${binding.name}'`);
  error.stack = `    at ${importer}:${binding.line}:1\n`;
  return error;
}

/** Asks the host to transform `source`; a syntax error is thrown as Node throws it, pointing at the file's line. */
function transform(source: string, filename: string, format: ModuleFormat): TransformedModule & { code: string } {
  try {
    const module = JSON.parse(host.fs(MODULE_TRANSFORM_OP, JSON.stringify([filename, format]), host.encodeUtf8(source)) as string) as TransformedModule;
    return { ...module, code: module.code ?? source };
  } catch (error) {
    const failure = error as Error & { code?: string };
    if (failure.code !== 'ERR_SYNTAX') throw error;
    const at = /\s*\((\d+):(\d+)\)$/.exec(failure.message);
    const syntax = new SyntaxError(at ? failure.message.slice(0, at.index) : failure.message);
    const where = filename.startsWith('/') ? `file://${filename}` : filename;
    syntax.stack = `    at ${where}:${at?.[1] ?? 1}:${at?.[2] ?? 1}\n`;
    throw syntax;
  }
}

