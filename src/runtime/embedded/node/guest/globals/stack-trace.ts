// V8's stack-trace API on QuickJS: Error.captureStackTrace(target, fn) and, when a program sets
// Error.prepareStackTrace, the structured call sites it receives (typescript-eslint finds eslint.config.js this way;
// depd and source-map-support read them too). QuickJS keeps only its text stack, so the call sites are parsed from it.

const FRAME = /^\s*at (?:(.*?) \()?(.*?)(?::(\d+):(\d+))?\)?$/;

type CallSite = {
  getFileName(): string | undefined;
  getLineNumber(): number | null;
  getColumnNumber(): number | null;
  getFunctionName(): string | null;
  getMethodName(): string | null;
  getTypeName(): string | null;
  getThis(): undefined;
  getFunction(): undefined;
  getEvalOrigin(): undefined;
  getScriptNameOrSourceURL(): string | undefined;
  isNative(): boolean;
  isToplevel(): boolean;
  isEval(): boolean;
  isConstructor(): boolean;
  isAsync(): boolean;
  isPromiseAll(): boolean;
  getPromiseIndex(): null;
  toString(): string;
};

function callSite(line: string): CallSite {
  const [, name, location = '', lineNumber, column] = FRAME.exec(line) ?? [];
  const native = location === 'native';
  const functionName = name && name !== '<anonymous>' ? name : null;
  const fileName = native || location === '' ? undefined : location;
  return {
    getFileName: () => fileName,
    getLineNumber: () => (lineNumber ? Number(lineNumber) : null),
    getColumnNumber: () => (column ? Number(column) : null),
    getFunctionName: () => functionName,
    getMethodName: () => null,
    getTypeName: () => null,
    getThis: () => undefined,
    getFunction: () => undefined,
    getEvalOrigin: () => undefined,
    getScriptNameOrSourceURL: () => fileName,
    isNative: () => native,
    isToplevel: () => functionName === null,
    isEval: () => false,
    isConstructor: () => false,
    isAsync: () => false,
    isPromiseAll: () => false,
    getPromiseIndex: () => null,
    toString: () => line.trim().replace(/^at /, ''),
  };
}

/**
 * The text of a new stack here (its first line is this function's caller's), whatever Error.prepareStackTrace a
 * program set: on V8 that hook makes `.stack` whatever it returns (typescript-eslint returns the call sites).
 */
export function stackText(): string {
  const ErrorApi = Error as unknown as Record<string, unknown>;
  const prepare = ErrorApi.prepareStackTrace;
  ErrorApi.prepareStackTrace = undefined;
  try {
    const stack = new Error().stack;
    return typeof stack === 'string' ? stack.split('\n').slice(2).join('\n') : ''; // past the message and this frame
  } finally {
    ErrorApi.prepareStackTrace = prepare;
  }
}

/** Installs Error.captureStackTrace and Error.stackTraceLimit (QuickJS has neither; V8, the browser engine, has both). */
export function installStackTraceApi(): void {
  const ErrorApi = Error as unknown as Record<string, unknown>;
  if (typeof ErrorApi.captureStackTrace === 'function') return;
  ErrorApi.captureStackTrace = (target: { stack?: unknown }, constructorOpt?: unknown) => {
    // The first line is this function's own frame.
    let frames = (new Error().stack ?? '').split('\n').slice(1).filter((line) => line.trim() !== '');
    const above = typeof constructorOpt === 'function' && constructorOpt.name ? frames.findIndex((line) => FRAME.exec(line)?.[1] === constructorOpt.name) : -1;
    if (above >= 0) frames = frames.slice(above + 1);
    const limit = Number(ErrorApi.stackTraceLimit);
    if (limit >= 0 && limit < frames.length) frames = frames.slice(0, limit);
    const prepare = ErrorApi.prepareStackTrace;
    const stack = typeof prepare === 'function' ? (prepare as (error: unknown, sites: CallSite[]) => unknown)(target, frames.map(callSite)) : frames.join('\n');
    Object.defineProperty(target, 'stack', { value: stack, writable: true, configurable: true });
  };
  ErrorApi.stackTraceLimit = 10;
}
