// What the guest asks of the host's module transform, over the engine's blocking request channel (the one fs uses,
// with ops named `module:*`), when its engine loads ES modules as CommonJS (EngineJob.modules 'transform').

/** The prefix of every module-transform op. */
export const MODULE_OP_PREFIX = 'module:';

/**
 * `module:transform`: args [filename, format], data the file's source (UTF-8). `format` 'module' turns an ES module
 * into a CommonJS body; 'commonjs' only rewrites a CommonJS file's `import()` and `import.meta`. The reply is JSON
 * `{ code, async, imports }` (`async`: the body may await, top-level or for its imports, and is compiled as an async
 * function; `imports`: the static imports' specifiers, which the body links first), or an error whose
 * code is 'ERR_SYNTAX' with the parser's message.
 */
export const MODULE_TRANSFORM_OP = 'module:transform';

export type ModuleFormat = 'module' | 'commonjs';
/**
 * ES modules only: `imports`, the static imports' specifiers in order, so the guest links before it runs the body;
 * `bindings`, the names each import statement takes (JavaScript only), so a missing export fails as in Node;
 * `getterExports`, the body defines every export as a getter (a live binding), which the namespace shows as a value.
 * No `code` means the source itself (most CommonJS files that mention import() only do so in strings): a big file
 * is not sent back unchanged.
 */
export type TransformedModule = {
  code?: string;
  async: boolean;
  imports?: string[];
  bindings?: { specifier: string; name: string; line: number }[];
  getterExports?: boolean;
};

/** A transform's output as it is made (the host leaves `code` out of its answer when it is the source itself). */
export type TransformOutput = TransformedModule & { code: string };

/** Whether `filename` is an installed package's: its authors' code, known to parse. */
export function isInstalled(filename: string): boolean {
  return filename.includes('/node_modules/');
}

/** A cheap test before a CommonJS file goes to the transform (guest) or the tokenizer (host): may it use import()? */
export function mayUseImport(source: string): boolean {
  return /\bimport\s*(\(|\.\s*meta\b)/.test(source);
}
