// Command-line options the GNU way, as rg and grep read them: short flags bundled (-inw), values attached or not (-C3,
// -C 3, --context=3, --context 3), options anywhere among the operands, "--" ending them; then the operands, the
// pattern first unless -e gave one. An option not in the table throws Unsupported, so the command falls back to
// just-bash's own implementation.

import { Unsupported } from './unsupported';

export type OptionSpec = {
  /** What the caller switches on. */
  key: string;
  short?: string;
  long?: string[];
  takesValue: boolean;
};

export type GivenOption = { key: string; value: string };

/** The options in the order given, and the operands. */
export function parseOptions(args: readonly string[], specs: readonly OptionSpec[]): { options: GivenOption[]; operands: string[] } {
  const byShort = new Map<string, OptionSpec>();
  const byLong = new Map<string, OptionSpec>();
  for (const spec of specs) {
    if (spec.short) byShort.set(spec.short, spec);
    for (const name of spec.long ?? []) byLong.set(name, spec);
  }
  const options: GivenOption[] = [];
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith('--')) {
      const equals = arg.indexOf('=');
      const name = arg.slice(2, equals === -1 ? undefined : equals);
      const spec = byLong.get(name);
      if (!spec) throw new Unsupported(`the option --${name}`);
      if (!spec.takesValue) {
        if (equals !== -1) throw new Unsupported(`a value for --${name}`);
        options.push({ key: spec.key, value: '' });
      } else if (equals !== -1) options.push({ key: spec.key, value: arg.slice(equals + 1) });
      else {
        if (i + 1 >= args.length) throw new Unsupported(`--${name} without its value`);
        options.push({ key: spec.key, value: args[++i] });
      }
    } else if (arg.startsWith('-') && arg.length > 1) {
      for (let j = 1; j < arg.length; j++) {
        const spec = byShort.get(arg[j]);
        if (!spec) throw new Unsupported(`the option -${arg[j]}`);
        if (!spec.takesValue) {
          options.push({ key: spec.key, value: '' });
          continue;
        }
        const attached = arg.slice(j + 1);
        if (attached !== '') options.push({ key: spec.key, value: attached });
        else {
          if (i + 1 >= args.length) throw new Unsupported(`-${arg[j]} without its value`);
          options.push({ key: spec.key, value: args[++i] });
        }
        break;
      }
    } else operands.push(arg);
  }
  return { options, operands };
}

/** A non-negative whole number given to `option`; anything else is left to just-bash's command to report. */
export function countValue(option: GivenOption): number {
  if (!/^\d+$/.test(option.value)) throw new Unsupported(`the value ${JSON.stringify(option.value)} for ${option.key}`);
  return Number(option.value);
}

/**
 * A search command's operands as patterns and paths: the first operand is the pattern when `wanted` and -e gave none
 * (`given`); the rest are paths, "-" (stdin) among them not handled.
 */
export function patternsAndPaths(
  command: string,
  given: readonly string[],
  operands: readonly string[],
  wanted = true,
): { patterns: string[]; paths: string[] } {
  const patterns = [...given];
  const paths = [...operands];
  if (wanted && patterns.length === 0) {
    const pattern = paths.shift();
    if (pattern === undefined) throw new Unsupported(`${command} without a pattern`);
    patterns.push(pattern);
  }
  if (paths.includes('-')) throw new Unsupported('"-" for stdin');
  return { patterns, paths };
}
