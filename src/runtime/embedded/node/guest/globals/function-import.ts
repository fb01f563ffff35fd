// `new Function('s', 'return import(s)')`, the trick CommonJS packages (Prettier's bin, bundlers' output) use to
// reach ES modules: in Node the import resolves from the file that made the function. QuickJS names such code
// "<input>" and so resolves it from the cwd; here a body that calls import() is compiled as a script named after
// the calling file instead, so its relative imports find what they would in Node.

import { host } from '../host';
import type { CommonJsRewrite } from '../modules/modules';
import { stackText } from './stack-trace';

const CALLER_FILE = /\((?:file:\/\/)?(\/[^():\n]+):\d+:\d+\)/;

/**
 * Replaces the global Function constructor with one whose import() calls resolve from the caller's file. `rewrite`
 * (modules 'transform', an engine with no import()) turns the body's import() into the module system's.
 */
export function installFunctionImport(rewrite?: CommonJsRewrite, scriptName = '[eval]'): void {
  const NativeFunction = Function;
  const ImportingFunction = function (this: unknown, ...args: unknown[]): unknown {
    const body = args.length > 0 ? String(args[args.length - 1]) : '';
    if (!body.includes('import(')) return NativeFunction(...(args as string[]));
    // The first frame naming a file (this function's own frame is in the guest's bundle, which names none).
    const caller = CALLER_FILE.exec(stackText())?.[1];
    const params = args.slice(0, -1).map(String).join(',');
    const rewritten = rewrite?.(caller ?? scriptName, body);
    if (rewritten) {
      const make = host.compile(`(function (${rewritten.params.join(', ')}) { return function anonymous(${params}\n) {\n${rewritten.code}\n}; })`, caller ?? scriptName);
      return (make as (...values: unknown[]) => unknown)(...rewritten.args);
    }
    if (!caller) return NativeFunction(...(args as string[]));
    return host.compile(`(function anonymous(${params}\n) {\n${body}\n})`, caller);
  } as unknown as FunctionConstructor;
  Object.defineProperty(ImportingFunction, 'prototype', { value: NativeFunction.prototype });
  // Libraries tell functions apart by their constructor's name ('Function', 'AsyncFunction', ...).
  Object.defineProperty(ImportingFunction, 'name', { value: 'Function' });
  Object.defineProperty(ImportingFunction, 'length', { value: 1 });
  Object.defineProperty(NativeFunction.prototype, 'constructor', { value: ImportingFunction, writable: true, configurable: true });
  (globalThis as unknown as { Function: FunctionConstructor }).Function = ImportingFunction;
}
