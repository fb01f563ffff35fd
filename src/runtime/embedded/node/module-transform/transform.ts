// An ES module as a CommonJS body, for an engine with no module loader (see messages.ts). The body expects to run as
//   (async?) function (exports, require, __conchMeta, __conchImport) { <code> }
// where `require` gives a dependency's namespace, __conchMeta is import.meta and __conchImport(specifier) is import()
// from this module. A CommonJS file is only given __conchImport and __conchMeta in place of import() and import.meta.
// Every line stays where it was, so stack traces and Node's "file:line" context point at the source.

import { transform, type Transform } from 'sucrase';
import type { ModuleFormat, TransformedModule } from './messages';
import { mayUseImport, rewriteModuleSyntax } from './rewrite';

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
export function transformModule(source: string, filename: string, format: ModuleFormat): TransformedModule {
  const typescript = TYPESCRIPT.test(filename);
  if (format === 'commonjs' && !mayUseImport(source)) {
    return { code: typescript ? sucrase(source, filename, ['typescript']) : source, async: false };
  }
  let rewritten;
  try {
    rewritten = rewriteModuleSyntax(source, format === 'module', typescript);
  } catch (error) {
    throw syntaxError(error);
  }
  const transforms: Transform[] = format === 'module' ? ['imports'] : [];
  if (typescript) transforms.push('typescript');
  const code = transforms.length ? sucrase(rewritten.code, filename, transforms) : rewritten.code;
  return { code, async: rewritten.usesTopLevelAwait };
}

function sucrase(source: string, filename: string, transforms: Transform[]): string {
  try {
    // preserveDynamicImport: the rewrite already turned import() into a call; keep sucrase from touching the rest.
    return transform(source, { transforms, filePath: filename, preserveDynamicImport: true, disableESTransforms: true }).code;
  } catch (error) {
    throw syntaxError(error);
  }
}

/** sucrase's "Unexpected token (3:7)" as Node's "Unexpected token", with its position kept apart. */
function syntaxError(error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  const at = /\s*\((\d+):(\d+)\)$/.exec(message);
  if (!at) return new ModuleSyntaxError(message, 1, 1);
  return new ModuleSyntaxError(message.slice(0, at.index), Number(at[1]), Number(at[2]));
}
