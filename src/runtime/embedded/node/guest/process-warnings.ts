// process.emitWarning as Node has it: the warning becomes an Error (name from the type, with its code and detail),
// is emitted as 'warning' on the next tick, and is printed to stderr unless --no-warnings or NODE_NO_WARNINGS=1
// (deprecations also not under --no-deprecation), the --trace-warnings hint only the first time.

import { nodeError } from './node-error';

type WarningProcess = {
  execArgv: string[];
  env: Record<string, string | undefined>;
  pid: number;
  noDeprecation?: boolean;
  nextTick(callback: () => void): void;
  emit(event: string, ...args: unknown[]): boolean;
};

/** The emitWarning function of `process`, printing through `writeStderr`. */
export function emitWarningOf(process: WarningProcess, writeStderr: (text: string) => void): (warning: unknown, type?: unknown, code?: unknown) => void {
  let hinted = false;
  return (warning, typeOrOptions, code) => {
    let type = 'Warning';
    let detail: string | undefined;
    let warningCode: string | undefined;
    if (typeOrOptions !== null && typeof typeOrOptions === 'object') {
      const options = typeOrOptions as { type?: unknown; code?: unknown; detail?: unknown };
      if (typeof options.type === 'string') type = options.type;
      if (typeof options.code === 'string') warningCode = options.code;
      if (typeof options.detail === 'string') detail = options.detail;
    } else {
      if (typeof typeOrOptions === 'string') type = typeOrOptions;
      if (typeof code === 'string') warningCode = code;
    }
    let error: Error & { code?: string; detail?: string };
    if (typeof warning === 'string') {
      error = new Error(warning);
      error.name = type;
      if (warningCode !== undefined) error.code = warningCode;
      if (detail !== undefined) error.detail = detail;
    } else if (warning instanceof Error) {
      error = warning;
    } else {
      throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "warning" argument must be of type string or an instance of Error. Received ${typeof warning}`);
    }
    const deprecation = error.name === 'DeprecationWarning';
    if (deprecation && (process.noDeprecation || hasFlag(process, '--no-deprecation'))) return;
    process.nextTick(() => {
      process.emit('warning', error);
      if (hasFlag(process, '--no-warnings') || process.env.NODE_NO_WARNINGS === '1') return;
      const shownCode = error.code === undefined ? '' : `[${error.code}] `;
      let text = `(node:${process.pid}) ${shownCode}${error.name}: ${error.message}\n`;
      if (error.detail !== undefined) text += `${error.detail}\n`;
      if (!hinted) {
        hinted = true;
        const flag = deprecation ? 'node --trace-deprecation ...' : 'node --trace-warnings ...';
        text += `(Use \`${flag}\` to show where the warning was created)\n`;
      }
      writeStderr(text);
    });
  };
}

/** A flag given on node's command line or in NODE_OPTIONS (which Node applies without listing it in execArgv). */
function hasFlag(process: { execArgv: string[]; env: Record<string, string | undefined> }, flag: string): boolean {
  return process.execArgv.includes(flag) || (process.env.NODE_OPTIONS ?? '').split(/\s+/).includes(flag);
}
