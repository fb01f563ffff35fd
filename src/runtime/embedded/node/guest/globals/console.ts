// `console` inside the guest: log/info/debug to stdout, error/warn/trace to stderr, as Node's.

import { host } from '../host';
import { format, inspect } from '../inspect';
import { stackText } from './stack-trace';

/** A console writing through the engine. */
export function createConsole(): Record<string, (...args: unknown[]) => void> {
  let indent = '';
  const counts = new Map<string, number>();
  const timers = new Map<string, number>();
  const print = (fd: 1 | 2, args: unknown[]) => {
    const text = format(...args);
    host.write(fd, (indent ? text.replace(/^/gm, indent) : text) + '\n');
  };
  const elapsed = (label: string) => {
    const start = timers.get(label);
    if (start === undefined) {
      host.write(2, `(node:42) Warning: No such label '${label}' for console.timeEnd()\n`);
      return undefined;
    }
    const ms = host.now() - start;
    return ms >= 1000 ? `${(ms / 1000).toFixed(3)}s` : `${ms.toFixed(3)}ms`;
  };
  return {
    log: (...args) => print(1, args),
    info: (...args) => print(1, args),
    debug: (...args) => print(1, args),
    error: (...args) => print(2, args),
    warn: (...args) => print(2, args),
    trace: (...args) => {
      const stack = stackText();
      print(2, [`Trace${args.length ? `: ${format(...args)}` : ''}\n${stack}`.replace(/\n$/, '')]);
    },
    dir: (value, options) => host.write(1, `${indent}${inspect(value, options as object)}\n`),
    dirxml: (...args) => print(1, args),
    table: (...args) => print(1, args),
    assert: (condition, ...args) => {
      if (!condition) print(2, args.length ? [`Assertion failed: ${format(...args)}`] : ['Assertion failed']);
    },
    count: (label = 'default') => {
      const key = String(label);
      const next = (counts.get(key) ?? 0) + 1;
      counts.set(key, next);
      print(1, [`${key}: ${next}`]);
    },
    countReset: (label = 'default') => void counts.delete(String(label)),
    group: (...args) => {
      if (args.length) print(1, args);
      indent += '  ';
    },
    groupCollapsed: (...args) => {
      if (args.length) print(1, args);
      indent += '  ';
    },
    groupEnd: () => {
      indent = indent.slice(2);
    },
    time: (label = 'default') => void timers.set(String(label), host.now()),
    timeEnd: (label = 'default') => {
      const text = elapsed(String(label));
      timers.delete(String(label));
      if (text) print(1, [`${String(label)}: ${text}`]);
    },
    timeLog: (label = 'default', ...args) => {
      const text = elapsed(String(label));
      if (text) print(1, [`${String(label)}: ${text}`, ...args]);
    },
  };
}
