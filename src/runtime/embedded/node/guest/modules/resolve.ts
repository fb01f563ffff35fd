// Module resolution as Node does it: relative and absolute paths, node_modules folders up the tree, package.json
// `exports` (subpaths, patterns, conditions), `imports` (#names), `main`, index files, and each file's format
// (.mjs/.cjs, else the nearest package.json's `type`). `require` tries extensions and folders; `import` wants the
// exact file, as in Node, except that './x.js' finds './x.ts' (TypeScript's convention for its sources).

export type ResolveMode = 'require' | 'import';
export type ModuleFormat = 'commonjs' | 'module' | 'json';

/** The file-system questions resolution asks. */
export interface ResolverFs {
  kind(path: string): 'file' | 'dir' | undefined;
  readText(path: string): string;
}

type PackageJson = { name?: string; main?: string; type?: string; exports?: unknown; imports?: unknown };

const CONDITIONS: Record<ResolveMode, Set<string>> = {
  require: new Set(['require', 'node', 'default']),
  import: new Set(['import', 'node', 'default']),
};
const REQUIRE_EXTENSIONS = ['.js', '.json', '.node', '.ts', '.cjs', '.cts', '.mjs', '.mts'];
/** A line starting with an import or export statement (not `import(`, a dynamic import, which CommonJS has too, nor a
 * name that starts with import, such as an `importName:` key). */
const ESM_SYNTAX = /^\s*(import(\s+[\w{*'"]|\s*[{*'"])|export\s+(default|const|let|var|function|class|async|\{|\*))/m;
const TS_FOR_JS: Record<string, string> = { '.js': '.ts', '.mjs': '.mts', '.cjs': '.cts' };

/** A resolution failure, with Node's code (MODULE_NOT_FOUND, ERR_MODULE_NOT_FOUND, ERR_PACKAGE_PATH_NOT_EXPORTED, ...). */
export class ResolveError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

export class Resolver {
  private readonly packages = new Map<string, PackageJson | null>();

  constructor(private readonly fs: ResolverFs) {}

  /** The absolute file `request` names from a module in `fromDir`. */
  resolve(request: string, fromDir: string, mode: ResolveMode, referrer: string): string {
    const found = this.find(request, fromDir, mode);
    if (found) return found;
    if (mode === 'import') {
      const shown = request.startsWith('.') || request.startsWith('/') ? join(fromDir, request) : request;
      const kind = request.startsWith('.') || request.startsWith('/') ? 'module' : 'package';
      throw new ResolveError(`Cannot find ${kind} '${shown}' imported from ${referrer}`, 'ERR_MODULE_NOT_FOUND');
    }
    throw new ResolveError(`Cannot find module '${request}'\nRequire stack:\n- ${referrer}`, 'MODULE_NOT_FOUND');
  }

  /** The file `node <path>` runs: the path, or as require resolves it (path.js, path/index.js, a package's main). */
  findMain(path: string): string | undefined {
    return this.asFileOrDirectory(path);
  }

  /**
   * How the file is loaded: by extension, else by the nearest package.json's `type`; with neither, as Node 20.19+
   * detects it, ESM when the source has import/export statements.
   */
  formatOf(file: string): ModuleFormat {
    if (/\.(mjs|mts)$/.test(file)) return 'module';
    if (/\.(cjs|cts)$/.test(file)) return 'commonjs';
    if (file.endsWith('.json')) return 'json';
    const type = this.nearestPackage(dirname(file))?.json.type;
    if (type === 'module') return 'module';
    if (type === 'commonjs') return 'commonjs';
    return ESM_SYNTAX.test(this.fs.readText(file)) ? 'module' : 'commonjs';
  }

  private find(request: string, fromDir: string, mode: ResolveMode): string | undefined {
    if (request.startsWith('file://')) return this.exactFile(decodeURIComponent(request.slice('file://'.length)), mode);
    if (request.startsWith('/') || request === '.' || request === '..' || request.startsWith('./') || request.startsWith('../')) {
      const path = join(fromDir, request);
      return mode === 'require' ? this.asFileOrDirectory(path) : this.exactFile(path, mode);
    }
    if (request.startsWith('#')) return this.packageImports(request, fromDir, mode);
    return this.packageRequest(request, fromDir, mode);
  }

  /** ESM: the file itself (or its TypeScript source); a folder is an error, as in Node. */
  private exactFile(path: string, mode: ResolveMode): string | undefined {
    const kind = this.fs.kind(path);
    if (kind === 'file') return path;
    if (kind === 'dir') {
      if (mode === 'require') return this.asFileOrDirectory(path);
      throw new ResolveError(`Directory import '${path}' is not supported resolving ES modules`, 'ERR_UNSUPPORTED_DIR_IMPORT');
    }
    const ext = /\.[cm]?js$/.exec(path)?.[0];
    if (ext) {
      const ts = path.slice(0, -ext.length) + TS_FOR_JS[ext];
      if (this.fs.kind(ts) === 'file') return ts;
    }
    return undefined;
  }

  private asFileOrDirectory(path: string): string | undefined {
    if (this.fs.kind(path) === 'file') return path;
    for (const ext of REQUIRE_EXTENSIONS) if (this.fs.kind(path + ext) === 'file') return path + ext;
    const ext = /\.[cm]?js$/.exec(path)?.[0];
    if (ext && this.fs.kind(path.slice(0, -ext.length) + TS_FOR_JS[ext]) === 'file') return path.slice(0, -ext.length) + TS_FOR_JS[ext];
    if (this.fs.kind(path) === 'dir') {
      const pkg = this.readPackage(path);
      if (pkg?.main) {
        const main = join(path, pkg.main);
        const found = this.fs.kind(main) === 'file' ? main : this.asIndexOrExtension(main);
        if (found) return found;
      }
      return this.asIndexOrExtension(join(path, 'index'));
    }
    return undefined;
  }

  private asIndexOrExtension(path: string): string | undefined {
    for (const ext of REQUIRE_EXTENSIONS) if (this.fs.kind(path + ext) === 'file') return path + ext;
    if (this.fs.kind(path) === 'dir') for (const ext of REQUIRE_EXTENSIONS) if (this.fs.kind(`${path}/index${ext}`) === 'file') return `${path}/index${ext}`;
    return undefined;
  }

  private packageRequest(request: string, fromDir: string, mode: ResolveMode): string | undefined {
    const parts = request.split('/');
    const nameLength = request.startsWith('@') ? 2 : 1;
    const name = parts.slice(0, nameLength).join('/');
    const subpath = parts.length > nameLength ? `./${parts.slice(nameLength).join('/')}` : '.';

    const self = this.nearestPackage(fromDir);
    if (self && self.json.name === name && self.json.exports !== undefined) {
      return this.packageExports(self.dir, subpath, self.json.exports, mode, request);
    }
    for (let dir = fromDir; ; dir = dirname(dir)) {
      if (!dir.endsWith('/node_modules')) {
        const packageDir = `${dir === '/' ? '' : dir}/node_modules/${name}`;
        if (this.fs.kind(packageDir) === 'dir') {
          const pkg = this.readPackage(packageDir);
          if (pkg?.exports !== undefined && pkg.exports !== null) return this.packageExports(packageDir, subpath, pkg.exports, mode, request);
          const target = subpath === '.' ? packageDir : join(packageDir, subpath);
          const found = this.asFileOrDirectory(target);
          if (found) return found;
        }
      }
      if (dir === '/') return undefined;
    }
  }

  private packageExports(packageDir: string, subpath: string, exports: unknown, mode: ResolveMode, request: string): string {
    const map = isSubpathMap(exports) ? (exports as Record<string, unknown>) : { '.': exports };
    const target = matchSubpath(map, subpath);
    const resolved = target === undefined ? undefined : this.resolveTarget(packageDir, target.value, target.star, mode);
    if (resolved === undefined) {
      throw new ResolveError(
        subpath === '.'
          ? `No "exports" main defined in ${packageDir}/package.json`
          : `Package subpath '${subpath}' is not defined by "exports" in ${packageDir}/package.json`,
        'ERR_PACKAGE_PATH_NOT_EXPORTED',
      );
    }
    if (this.fs.kind(resolved) !== 'file') {
      throw new ResolveError(`Cannot find module '${resolved}' (resolving '${request}' through "exports" in ${packageDir}/package.json)`, mode === 'import' ? 'ERR_MODULE_NOT_FOUND' : 'MODULE_NOT_FOUND');
    }
    return resolved;
  }

  private packageImports(request: string, fromDir: string, mode: ResolveMode): string | undefined {
    const owner = this.nearestPackage(fromDir);
    const imports = owner?.json.imports;
    if (!owner || typeof imports !== 'object' || imports === null) return undefined;
    const target = matchSubpath(imports as Record<string, unknown>, request);
    if (target === undefined) return undefined;
    if (typeof target.value === 'string' && !target.value.startsWith('./')) {
      return this.packageRequest(target.value.replace('*', target.star ?? ''), owner.dir, mode);
    }
    return this.resolveTarget(owner.dir, target.value, target.star, mode);
  }

  /** An exports/imports target: a './' path (with '*' filled in), an array of fallbacks, or conditions in order. */
  private resolveTarget(packageDir: string, target: unknown, star: string | undefined, mode: ResolveMode): string | undefined {
    if (typeof target === 'string') {
      if (!target.startsWith('./')) return undefined;
      return join(packageDir, star === undefined ? target : target.split('*').join(star));
    }
    if (Array.isArray(target)) {
      for (const option of target) {
        const found = this.resolveTarget(packageDir, option, star, mode);
        if (found !== undefined && this.fs.kind(found) === 'file') return found;
      }
      return undefined;
    }
    if (target && typeof target === 'object') {
      for (const [condition, value] of Object.entries(target)) {
        if (!CONDITIONS[mode].has(condition)) continue;
        const found = this.resolveTarget(packageDir, value, star, mode);
        if (found !== undefined) return found;
      }
    }
    return undefined;
  }

  private nearestPackage(fromDir: string): { dir: string; json: PackageJson } | undefined {
    for (let dir = fromDir; ; dir = dirname(dir)) {
      const json = this.readPackage(dir);
      if (json) return { dir, json };
      if (dir === '/' || dir.endsWith('/node_modules')) return undefined;
    }
  }

  private readPackage(dir: string): PackageJson | null {
    const file = `${dir === '/' ? '' : dir}/package.json`;
    if (this.packages.has(file)) return this.packages.get(file)!;
    let json: PackageJson | null = null;
    if (this.fs.kind(file) === 'file') {
      try {
        json = JSON.parse(this.fs.readText(file)) as PackageJson;
      } catch (error) {
        throw new ResolveError(`Invalid package config ${file}: ${error instanceof Error ? error.message : String(error)}`, 'ERR_INVALID_PACKAGE_CONFIG');
      }
    }
    this.packages.set(file, json);
    return json;
  }
}

function isSubpathMap(exports: unknown): boolean {
  return typeof exports === 'object' && exports !== null && !Array.isArray(exports) && Object.keys(exports).some((key) => key.startsWith('.'));
}

/** The exports/imports entry for `subpath`: an exact key, else the longest '*' pattern (or legacy folder '/') match. */
function matchSubpath(map: Record<string, unknown>, subpath: string): { value: unknown; star?: string } | undefined {
  if (Object.prototype.hasOwnProperty.call(map, subpath) && !subpath.includes('*')) return { value: map[subpath] };
  let best: { key: string; value: unknown; star: string } | undefined;
  for (const [key, value] of Object.entries(map)) {
    const starAt = key.indexOf('*');
    if (starAt >= 0) {
      const prefix = key.slice(0, starAt);
      const suffix = key.slice(starAt + 1);
      if (subpath.startsWith(prefix) && subpath.endsWith(suffix) && subpath.length >= key.length - 1 && (!best || prefix.length > best.key.indexOf('*'))) {
        best = { key, value, star: subpath.slice(prefix.length, subpath.length - suffix.length) };
      }
    } else if (key.endsWith('/') && subpath.startsWith(key) && (!best || key.length > best.key.length)) {
      best = { key, value: typeof value === 'string' ? value + subpath.slice(key.length) : value, star: '' };
    }
  }
  return best && { value: best.value, star: best.key.includes('*') ? best.star : undefined };
}

/** POSIX path join that resolves '.' and '..' (requests are relative to an absolute folder). */
export function join(from: string, request: string): string {
  const parts = request.startsWith('/') ? [] : from.split('/').filter(Boolean);
  for (const part of request.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `/${parts.join('/')}`;
}

export function dirname(path: string): string {
  const at = path.lastIndexOf('/');
  return at <= 0 ? '/' : path.slice(0, at);
}
