// The token-level rewrite that runs before sucrase: `import(x)` and `import.meta` become the wrapper's parameters,
// an ES module's own `require` and `exports` names are renamed away from the ones sucrase's CommonJS output uses, and
// top-level await is found. Positions come from sucrase's tokenizer, so strings, comments, template literals and
// regular expressions are never touched; every replacement keeps its line breaks, so line numbers stay.

import { parse, type SucraseToken } from 'sucrase/dist/parser';

/** The names the transformed code expects from its wrapper function. */
export const META_PARAM = '__conchMeta';
export const IMPORT_PARAM = '__conchImport';
/** Called first thing in an ES module's body: links its static imports; a promise when one is on a top-level await. */
export const LINK_PARAM = '__conchLink';
/** What an ES module's own `require` / `exports` become: names nothing defines, so `typeof require` is 'undefined'. */
const RENAMED = new Map([
  ['require', '__conchModuleScope_require'],
  ['exports', '__conchModuleScope_exports'],
]);

// sucrase's IdentifierRole values (parser/tokenizer/index.d.ts).
const ROLE_EXPORT_ACCESS = 1;
const ROLE_SHORTHAND_FIRST = 5; // ObjectShorthandTopLevelDeclaration .. ObjectShorthand
const ROLE_SHORTHAND_LAST = 8;
const ROLE_IMPORT_DECLARATION = 9;
const ROLE_OBJECT_KEY = 10;
const ROLE_IMPORT_ACCESS = 11;

/**
 * `hoistedExports`: `export function` declarations as [exported name, local name]. An ES module's functions are
 * bound before any module runs, so an import cycle can call them early; sucrase assigns them where they stand.
 */
export type Rewritten = { code: string; usesTopLevelAwait: boolean; hoistedExports: [string, string][]; bindings: ImportedBinding[] };

/** A name an `import` statement takes from a module (`default` for a default import), and the statement's line. */
export type ImportedBinding = { specifier: string; name: string; line: number };

/**
 * Rewrites `source` (an ES module when `esModule`, else CommonJS) as described above; throws sucrase's SyntaxError
 * (message "... (line:column)") when it does not parse.
 */
export function rewriteModuleSyntax(source: string, esModule: boolean, typescript: boolean): Rewritten {
  const { tokens, scopes } = parse(source, false, typescript, false);
  const text = (token: SucraseToken | undefined): string => (token ? source.slice(token.start, token.end) : '');
  // How many function bodies hold each token (the program's own scope, which sucrase also marks as one, spans every
  // token and does not count): +1 where a body starts, -1 where it ends, summed along the way.
  const depthChange = new Int32Array(tokens.length + 1);
  for (const scope of scopes) {
    if (!scope.isFunctionScope || (scope.startTokenIndex === 0 && scope.endTokenIndex >= tokens.length - 1)) continue;
    depthChange[scope.startTokenIndex]++;
    depthChange[Math.min(scope.endTokenIndex, tokens.length)]--;
  }
  let functionDepth = 0;

  const edits: { start: number; end: number; text: string }[] = [];
  let usesTopLevelAwait = false;
  const hoistedExports = new Map<string, string>();
  const bindings: ImportedBinding[] = [];
  const lineOf = (position: number): number => source.slice(0, position).split('\n').length;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    functionDepth += depthChange[i];
    if (token.isType) continue;
    const word = text(token);
    const before = text(tokens[i - 1]);
    if (esModule && word === 'import' && token.scopeDepth === 0 && !typescript && text(tokens[i + 1]) !== '(' && text(tokens[i + 1]) !== '.') {
      bindings.push(...importedBindings(tokens.slice(i + 1, i + 200).map(text), lineOf(token.start)));
    }
    if (esModule && word === 'export' && token.scopeDepth === 0) {
      const hoisted = exportedFunction(tokens.slice(i + 1, i + 5).map(text));
      if (hoisted) hoistedExports.set(hoisted[0], hoisted[1]);
    }
    const isProperty = before === '.' || before === '?.';
    if (word === 'import' && !isProperty) {
      if (text(tokens[i + 1]) === '(') edits.push({ start: token.start, end: token.end, text: IMPORT_PARAM });
      else if (text(tokens[i + 1]) === '.' && text(tokens[i + 2]) === 'meta') {
        const end = tokens[i + 2].end;
        edits.push({ start: token.start, end, text: keepingLines(META_PARAM, source.slice(token.start, end)) });
        i += 2;
      }
      continue;
    }
    if (!esModule) continue;
    if (word === 'await' && token.identifierRole === null && !isProperty && functionDepth === 0) usesTopLevelAwait = true;
    const renamed = RENAMED.get(word);
    if (renamed === undefined || token.identifierRole === null) continue;
    const role = token.identifierRole;
    if (role === ROLE_OBJECT_KEY || role === ROLE_IMPORT_ACCESS) continue;
    let replacement = renamed;
    if (role >= ROLE_SHORTHAND_FIRST && role <= ROLE_SHORTHAND_LAST) replacement = `${word}: ${renamed}`;
    else if (role === ROLE_IMPORT_DECLARATION && (before === '{' || before === ',')) replacement = `${word} as ${renamed}`;
    else if (role === ROLE_EXPORT_ACCESS && text(tokens[i + 1]) !== 'as') replacement = `${renamed} as ${word}`;
    edits.push({ start: token.start, end: token.end, text: replacement });
  }

  let code = '';
  let at = 0;
  for (const edit of edits) {
    code += source.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  return { code: code + source.slice(at), usesTopLevelAwait, hoistedExports: [...hoistedExports], bindings };
}

/**
 * The names an import statement takes, from the words after `import`: `d`, `{ a, b as c }`, `d, { a }`; none for
 * `* as ns` or a bare `import 'x'`. (TypeScript is left out by the caller: its type-only names vanish at runtime.)
 */
function importedBindings(next: string[], line: number): ImportedBinding[] {
  const names: string[] = [];
  let at = 0;
  if (/^[A-Za-z_$][\w$]*$/.test(next[at] ?? '')) {
    names.push('default');
    at++;
    if (next[at] === ',') at++;
  }
  if (next[at] === '*' && next[at + 1] === 'as') {
    at += 3;
  } else if (next[at] === '{') {
    for (at++; at < next.length && next[at] !== '}'; at++) {
      if (next[at] === ',') continue;
      names.push(/^["']/.test(next[at]) ? next[at].slice(1, -1) : next[at]);
      if (next[at + 1] === 'as') at += 2;
    }
    at++;
  }
  if (next[at] !== 'from' || !/^["'][^\\'"]*["']$/.test(next[at + 1] ?? '')) return [];
  const specifier = next[at + 1].slice(1, -1);
  return names.map((name) => ({ specifier, name, line }));
}

/** After `export`: `function f`, `async function f`, `function* f`, `default function f` give [exported, local]. */
function exportedFunction(next: string[]): [string, string] | undefined {
  let at = 0;
  const isDefault = next[at] === 'default';
  if (isDefault) at++;
  if (next[at] === 'async') at++;
  if (next[at] !== 'function') return undefined;
  at++;
  if (next[at] === '*') at++;
  const name = next[at];
  if (name === undefined || !/^[A-Za-z_$][\w$]*$/.test(name) || RENAMED.has(name)) return undefined;
  return [isDefault ? 'default' : name, name];
}

/**
 * The specifiers sucrase's CommonJS output requires, in order: the module's static imports as they run (type-only
 * imports elided). The module's own `require` was renamed away, so every `require('...')` call left is sucrase's.
 */
export function staticImports(code: string): string[] {
  const { tokens } = parse(code, false, false, false);
  const text = (index: number): string => (tokens[index] ? code.slice(tokens[index].start, tokens[index].end) : '');
  const found: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (text(i) !== 'require' || tokens[i].identifierRole === null || text(i + 1) !== '(' || text(i + 3) !== ')') continue;
    const literal = text(i + 2);
    // sucrase copies the source's string as it was written: one without escapes is the specifier itself.
    if (/^(['"])[^\\'"]*\1$/.test(literal) && !found.includes(literal.slice(1, -1))) found.push(literal.slice(1, -1));
  }
  return found;
}

/** `replacement`, followed by as many line breaks as `original` held (`import\n.meta` spans lines). */
function keepingLines(replacement: string, original: string): string {
  return replacement + '\n'.repeat(original.split('\n').length - 1);
}
