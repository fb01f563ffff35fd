// An ES module as a CommonJS body, for an engine with no module loader (see messages.ts). The body expects to run as
//   (async?) function (exports, require, __conchMeta, __conchImport, __conchLink) { <code> }
// where `require` gives a dependency's namespace, __conchMeta is import.meta, __conchImport(specifier) is import()
// from this module, and __conchLink() loads the `imports` first (a promise to await when one is still running). A body
// with imports is async so that it can wait; it runs synchronously to its end when nothing makes it wait. A CommonJS
// file is only given __conchImport and __conchMeta in place of import() and import.meta.
// Every line stays where it was, so stack traces and Node's "file:line" context point at the source.

import { transform, type Transform } from 'sucrase';
import { lexedModuleBody, lexModule, replaceImportCalls } from './lexed-module';
import { isInstalled, mayUseImport, type ModuleFormat, type TransformOutput } from './messages';
import { IMPORT_PARAM, LINK_PARAM, META_PARAM, rewriteModuleSyntax, staticImports } from './rewrite';

const TYPESCRIPT = /\.[cm]?ts$/;

/** A module's source parsed with no result: the message Node would print, and where (1-based line and column). */
export class ModuleSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(message);
    this.name = 'SyntaxError';
  }
}

/** `source` (of `filename`, in `format`) as the body described above; throws ModuleSyntaxError. */
export function transformModule(source: string, filename: string, format: ModuleFormat): TransformOutput {
  return quickTransform(source, filename, format) ?? fullTransform(source, filename, format);
}

/**
 * The body where no full parse is needed (a few ms even for a big file), else null: a CommonJS file, whose only
 * change is its import() and import.meta, and an installed package's ES module that the lexer can take (a syntax
 * error there is the engine's, without sucrase's position).
 */
export function quickTransform(source: string, filename: string, format: ModuleFormat): TransformOutput | null {
  const typescript = TYPESCRIPT.test(filename);
  if (format === 'commonjs' && !mayUseImport(source)) {
    return typescript ? null : { code: source, async: false };
  }
  if (typescript) return null;
  if (format === 'commonjs') {
    const lexed = rewriteCommonJsImports(source);
    return lexed === null ? null : { code: lexed, async: false };
  }
  return isInstalled(filename) ? lexedModuleBody(source) : null;
}

/** The body by sucrase's parse (and its TypeScript transform); throws ModuleSyntaxError. */
export function fullTransform(source: string, filename: string, format: ModuleFormat): TransformOutput {
  const typescript = TYPESCRIPT.test(filename);
  if (format === 'commonjs' && !mayUseImport(source)) return { code: typescript ? sucrase(source, filename, ['typescript']) : source, async: false };
  let rewritten;
  try {
    rewritten = rewriteModuleSyntax(source, format === 'module', typescript);
  } catch (error) {
    // sucrase parses as strict code; a sloppy CommonJS file (`with`, octal literals) is left to the engine as it is.
    if (format === 'commonjs' && !typescript) return { code: source, async: false };
    throw syntaxError(error);
  }
  const transforms: Transform[] = format === 'module' ? ['imports'] : [];
  if (typescript) transforms.push('typescript');
  const code = transforms.length ? sucrase(rewritten.code, filename, transforms) : rewritten.code;
  if (format === 'commonjs') return { code, async: false };
  // Read from the source with the lexer where every import is a real one (TypeScript's type-only ones vanish, so
  // there sucrase's output is read instead): a third full parse of a big module otherwise.
  const imports = (!typescript && lexedStaticImports(source)) || staticImports(code);
  const hoisted = rewritten.hoistedExports.map(([name, local]) => `exports.${name} = ${local};`);
  // Node links a module's imports (running them) before its body, and waits for one still on a top-level await.
  if (imports.length) hoisted.push(`const __conchLinked = ${LINK_PARAM}(); if (__conchLinked) await __conchLinked;`);
  const module: TransformOutput = { code: prologue(patchStarExport(code), hoisted), async: rewritten.usesTopLevelAwait || imports.length > 0, imports };
  if (rewritten.bindings.length) module.bindings = rewritten.bindings;
  return module;
}

/**
 * A CommonJS file's import() and import.meta replaced, found by es-module-lexer: a lexer, twenty times faster than
 * sucrase's tokenizer on a big file (typescript.js: 25 ms against 600), which matters because most files that mention
 * `import(` do so only in strings or comments and need no change at all. Null when the lexer cannot read the file.
 */
function rewriteCommonJsImports(source: string): string | null {
  const lexed = lexModule(source);
  return lexed && replaceImportCalls(source, lexed.imports);
}

/** An ES module's static imports and re-exports, in order, each specifier once; null when the lexer cannot read it. */
function lexedStaticImports(source: string): string[] | null {
  const lexed = lexModule(source);
  if (!lexed) return null;
  const specifiers: string[] = [];
  for (const entry of lexed.imports) {
    if (entry.d !== -1) continue; // import() and import.meta
    if (entry.n === undefined) return null; // a specifier the lexer could not read as a plain string
    if (!specifiers.includes(entry.n)) specifiers.push(entry.n);
  }
  return specifiers;
}

function sucrase(source: string, filename: string, transforms: Transform[]): string {
  try {
    // preserveDynamicImport: the rewrite already turned import() into a call; keep sucrase from touching the rest.
    return transform(source, { transforms, filePath: filename, preserveDynamicImport: true, disableESTransforms: true }).code;
  } catch (error) {
    throw syntaxError(error);
  }
}

/**
 * Two fixes to sucrase's `export *` helper (on the first line): the guest's exports object has a null prototype (it
 * prints as Node's `[Module: null prototype]`), so no exports.hasOwnProperty; and a name the module itself exports
 * after the `export *` line wins, as in Node, instead of failing to assign over the star export's getter.
 */
function patchStarExport(code: string): string {
  const firstLine = code.indexOf('\n');
  const head = firstLine < 0 ? code : code.slice(0, firstLine);
  const patched = head
    .replace('exports.hasOwnProperty(key)', 'Object.prototype.hasOwnProperty.call(exports, key)')
    .replace(
      'get: () => obj[key]}',
      'get: () => obj[key], set: (value) => Object.defineProperty(exports, key, {value, writable: true, enumerable: true, configurable: true})}',
    );
  return patched === head ? code : patched + code.slice(head.length);
}

/**
 * `statements` first thing after sucrase's "use strict", on line 1: exported functions are bound before the imports
 * run (an import cycle can call them, as in Node), then the imports are linked.
 */
function prologue(code: string, statements: string[]): string {
  if (statements.length === 0) return code;
  const text = statements.join(' ');
  const directive = '"use strict";';
  return code.startsWith(directive) ? `${directive}${text}${code.slice(directive.length)}` : `${text}${code}`;
}

/** sucrase's "Unexpected token (3:7)" as Node's "Unexpected token", with its position kept apart. */
function syntaxError(error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  const at = /\s*\((\d+):(\d+)\)$/.exec(message);
  if (!at) return new ModuleSyntaxError(message, 1, 1);
  return new ModuleSyntaxError(message.slice(0, at.index), Number(at[1]), Number(at[2]));
}
