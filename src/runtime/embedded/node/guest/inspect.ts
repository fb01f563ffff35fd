// Formatting values as Node prints them: Node's util.inspect/format (node-inspect-extracted), with errors shown by
// their stack (QuickJS's `stack` holds only the frames, Node's starts with "Name: message").

import { inspectModule } from './modules/packages';

/** An error's stack as Node prints it: the "Name: message" line, then the frames. */
export function stackOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const stack = typeof error.stack === 'string' ? error.stack : '';
  const header = errorHeader(error);
  return stack.startsWith(header) ? stack.replace(/\n$/, '') : `${header}\n${stack}`.replace(/\n$/, '');
}

function errorHeader(error: Error): string {
  let text: string;
  try {
    text = String(error);
  } catch {
    text = error.name;
  }
  return text;
}

/** util.inspect, with errors as their stacks plus Node's `[ code: '...' ]`-style extra fields. */
export function inspect(value: unknown, options?: object): string {
  if (value instanceof Error) return inspectError(value);
  return inspectModule().inspect(value, options as never);
}

function inspectError(error: Error): string {
  const extra = Object.keys(error).filter((key) => key !== 'stack' && key !== 'message');
  const base = stackOf(error);
  if (extra.length === 0) return base;
  const fields = extra.map((key) => `  ${key}: ${inspectModule().inspect((error as unknown as Record<string, unknown>)[key])}`);
  return `${base} {\n${fields.join(',\n')}\n}`;
}

function isPlain(value: unknown): boolean {
  return typeof value === 'string' || (typeof value === 'number' && !Object.is(value, -0)) || typeof value === 'boolean' || value === undefined || value === null;
}

/** util.format with Node's handling of errors among the arguments. */
export function format(...args: unknown[]): string {
  // The common case, plain values and no format directives, needs no inspect.
  if (args.every(isPlain) && !(typeof args[0] === 'string' && args[0].includes('%'))) return args.map(String).join(' ');
  const util = inspectModule();
  if (typeof args[0] === 'string') {
    const template = args[0];
    const placeholders = (template.match(/%[sdifjoOc%]/g) ?? []).filter((p) => p !== '%%').length;
    const rest = args.slice(1 + placeholders).map((arg) => (typeof arg === 'string' ? arg : inspect(arg)));
    const head = util.format(template, ...args.slice(1, 1 + placeholders));
    return [head, ...rest].join(' ');
  }
  return args.map((arg) => (typeof arg === 'string' ? arg : inspect(arg))).join(' ');
}
