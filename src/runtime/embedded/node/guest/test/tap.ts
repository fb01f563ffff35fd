// The YAML block under a failed test in Node 20's TAP report: the error's message, code, name, the assertion's
// expected/actual/operator, and the stack frames.

import { stackOf } from '../inspect';
import { inspectModule } from '../modules/packages';

/** The error's fields as Node's TAP reporter writes them. */
export function errorYaml(error: unknown): string[] {
  if (!(error instanceof Error)) return [`error: ${quote(String(error))}`];
  const lines = [`error: |-`, ...error.message.split('\n').map((line) => `  ${line}`)];
  const fields = error as unknown as Record<string, unknown>;
  if (typeof fields.code === 'string') lines.push(`code: '${fields.code}'`);
  if (error.name !== 'Error') lines.push(`name: '${error.name}'`);
  for (const key of ['expected', 'actual', 'operator'] as const) {
    if (key in fields && fields[key] !== undefined) lines.push(`${key}: ${inspectModule().inspect(fields[key])}`);
  }
  const frames = stackOf(error)
    .split('\n')
    .filter((line) => /^\s+at /.test(line))
    .map((line) => `  ${line.trim().replace(/^at /, '')}`);
  if (frames.length) lines.push('stack: |-', ...frames);
  return lines;
}

function quote(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

