// An installed package's ES module with no static imports, made a CommonJS body by es-module-lexer alone (no parse):
// bundled packages (prettier's plugins, 100 KB to 1.8 MB each) are exactly this, a body and one `export { a as b }`
// clause, and the full parse costs 40-150 ms per file on a check's first run. The lexer reads one in 1-4 ms.
//
// The body runs in an inner function inside a block where `require` and `exports` are undefined lets, so
// `typeof require` is 'undefined' as in Node's ES modules (esbuild's require shim tests it), and the module's own
// top-level `const require` does not clash with the wrapper's parameter. Exports are getters on the namespace, bound
// before the body runs, so they are live (the guest's namespace shows them as values, as Node's). Every line stays
// where it was.

import { initSync, parse } from 'es-module-lexer';
import type { TransformOutput } from './messages';
import { IMPORT_PARAM, META_PARAM } from './rewrite';

type Lexed = ReturnType<typeof parse>;
type LexedImport = Lexed[0][number];

type LexedModule = { imports: readonly LexedImport[]; exports: Lexed[1] };

let lexerReady = false;
// The last source lexed: an installed module this path leaves to the full transform is lexed there again.
let last: { source: string; lexed: LexedModule | null } | undefined;

/** es-module-lexer's imports and exports of `source`; null when it cannot read it. */
export function lexModule(source: string): LexedModule | null {
  if (last?.source === source) return last.lexed;
  let lexed: LexedModule | null;
  try {
    if (!lexerReady) {
      initSync();
      lexerReady = true;
    }
    const [imports, exports] = parse(source);
    lexed = { imports, exports };
  } catch {
    lexed = null;
  }
  last = { source, lexed };
  return lexed;
}

/** `source` with the lexer's import() and import.meta replaced by the wrapper's parameters (static imports are left). */
export function replaceImportCalls(source: string, imports: readonly LexedImport[]): string {
  let code = '';
  let at = 0;
  for (const entry of imports) {
    const meta = entry.d === -2;
    if (entry.d < 0 && !meta) continue;
    code += source.slice(at, entry.ss) + (meta ? META_PARAM : IMPORT_PARAM);
    at = entry.ss + (meta ? 'import.meta'.length : 'import'.length);
  }
  return at === 0 ? source : code + source.slice(at);
}

const DECLARATION = /^export\s+(?:default\s+)?(?:const|let|var|function|async\s+function|class)\b/;
const DEFAULT_KEYWORDS = /export\s+default/y;
const CLAUSE = /export\s*\{[\s\w$,]*\}/y;

/**
 * The body of ES module `source` described above, or null when it is not one this path takes: a static import or
 * re-export, a default export of an expression, a clause with string names, or a source the lexer cannot read.
 */
export function lexedModuleBody(source: string): TransformOutput | null {
  const lexed = lexModule(source);
  if (!lexed || lexed.imports.some((entry) => entry.d === -1)) return null;
  const getters: string[] = [];
  const removals: [number, number][] = [];
  const seen = new Set<number>();
  // In sorted order, as a namespace's keys are in Node.
  for (const entry of [...lexed.exports].sort((a, b) => (a.n < b.n ? -1 : a.n > b.n ? 1 : 0))) {
    if (!entry.ln) return null; // `export default <expression>`: no local name to bind
    getters.push(`Object.defineProperty(__conchExports, ${JSON.stringify(entry.n)}, { enumerable: true, configurable: true, get: () => ${entry.ln} });`);
    if (seen.has(entry.ss)) continue;
    seen.add(entry.ss);
    const removed = exportKeywords(source, entry.ss);
    if (!removed) return null;
    removals.push(removed);
  }
  // `export {}` declares nothing the lexer reports, and would be left in a function body.
  if (lexed.exports.length === 0 && /\bexport\s*\{\s*\}/.test(source)) return null;
  removals.sort((a, b) => a[0] - b[0]);
  let body = '';
  let at = 0;
  for (const [start, end] of removals) {
    body += source.slice(at, start) + blank(source.slice(start, end));
    at = end;
  }
  body = replaceImportCalls(body + source.slice(at), lexed.imports);
  if (body.startsWith('#!')) body = `//${body.slice(2)}`;
  // A body that mentions `await` may wait at its top level: it runs as an async function, awaited only when it did
  // not run to its end at once (a module without a top-level await still finishes synchronously, as in Node).
  const mayAwait = /\bawait\b/.test(source);
  const bound = `const __conchExports = exports; { let require, exports; `;
  if (!mayAwait) return { code: `${bound}(function () { "use strict"; ${getters.join(' ')}${body}\n}).call(undefined); }`, async: false, getterExports: true };
  const head = `${bound}let __conchRan = false; const __conchRun = (async function () { "use strict"; ${getters.join(' ')}`;
  return { code: `${head}${body}\n;__conchRan = true; }).call(undefined); if (!__conchRan) await __conchRun; }`, async: true, getterExports: true };
}

/** The span of `export` syntax to blank in the statement at `start`: the keyword(s), or a whole export clause. */
function exportKeywords(source: string, start: number): [number, number] | null {
  if (DECLARATION.test(source.slice(start, start + 64))) {
    DEFAULT_KEYWORDS.lastIndex = start;
    return DEFAULT_KEYWORDS.test(source) ? [start, DEFAULT_KEYWORDS.lastIndex] : [start, start + 'export'.length];
  }
  CLAUSE.lastIndex = start;
  return CLAUSE.test(source) ? [start, CLAUSE.lastIndex] : null;
}

/** `text` as spaces, its line breaks kept. */
function blank(text: string): string {
  return text.replace(/[^\n]/g, ' ');
}
