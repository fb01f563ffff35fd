// TypeScript support for `node`: types are stripped (not checked) by sucrase, which keeps every line where it was so
// stack traces point at the workspace file's own lines. Loaded once per engine worker, off the page's start-up path.

export type { TypeStripper } from './engine/engine';

/** Loads sucrase and returns a function turning TypeScript (ESM or CommonJS syntax) into JavaScript. */
export async function loadTypeStripper(): Promise<(code: string, filename: string) => string> {
  const { transform } = await import('sucrase');
  return (code, filename) =>
    transform(code, {
      transforms: ['typescript'],
      filePath: filename,
      disableESTransforms: true,
      keepUnusedImports: false,
    }).code;
}
