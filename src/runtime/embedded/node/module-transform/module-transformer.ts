// The host's answer to the guest's `module:*` requests (see messages.ts). What arrives is untrusted: the guest runs
// the program's code, so every field is checked, and every failure is an error answer, never a throw.

import type { FsAnswer } from '../engine/fs-service';
import type { FsRequest } from '../engine/protocol';
import { isInstalled, MODULE_TRANSFORM_OP, type ModuleFormat, type TransformedModule } from './messages';
import { TransformCache } from './cache';
import type { StoredModules } from './stored-modules';
import type * as Transform from './transform';

/** sucrase loads on the first transform: a runtime whose engine loads modules natively never pays for it. */
type TransformApi = typeof Transform;

/** The largest source the transform takes (a bundled package is a few MB; past this something is wrong). */
export const MAX_SOURCE_BYTES = 16 * 1024 * 1024;
const MAX_FILENAME_LENGTH = 4096;

const decoder = new TextDecoder('utf-8', { fatal: false });

/**
 * Transforms modules for one runtime's engines, remembering what it transformed: in memory, and (an installed
 * package's modules that needed the full parse) in `stored`, which outlives the runtime.
 */
export class ModuleTransformer {
  private api: Promise<TransformApi> | undefined;

  constructor(
    readonly cache = new TransformCache(),
    private readonly stored?: StoredModules,
  ) {}

  /** Loads the transform ahead of the first request (an engine that will need it): its first module costs less. */
  prepare(): void {
    this.api ??= import('./transform').then((api) => {
      api.transformModule('import x from "y";\nexport const z = x;\n', '/warm.mjs', 'module'); // the parser's first run is its slowest
      return api;
    });
    this.api.catch(() => (this.api = undefined));
  }

  /** Answers one `module:*` request: JSON `{ code, async }`, or an error (ERR_SYNTAX for a module that does not parse). */
  async answerModuleRequest(request: FsRequest): Promise<FsAnswer> {
    try {
      return await this.answer(request);
    } catch (error) {
      this.api = undefined; // a failed load is tried again next time
      return invalid(`module transform failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private async answer(request: FsRequest): Promise<FsAnswer> {
    if (request === null || typeof request !== 'object') return invalid('the request is not an object');
    const { op, args, data } = request;
    if (op !== MODULE_TRANSFORM_OP) return { kind: 'error', code: 'ENOSYS', message: `ENOSYS: function not implemented, ${String(op)}` };
    if (!Array.isArray(args) || args.length !== 2) return invalid(`${op} takes [filename, format]`);
    const [filename, format] = args as unknown[];
    if (typeof filename !== 'string' || filename.length === 0 || filename.length > MAX_FILENAME_LENGTH) return invalid(`${op}: the filename must be a non-empty string`);
    if (!isFormat(format)) return invalid(`${op}: the format must be 'module' or 'commonjs', not ${JSON.stringify(format) ?? String(format)}`);
    if (!(data instanceof Uint8Array)) return invalid(`${op}: the source bytes are missing`);
    if (data.byteLength > MAX_SOURCE_BYTES) {
      return invalid(`${op}: ${filename} is ${data.byteLength} bytes; modules over ${MAX_SOURCE_BYTES} bytes are not transformed`);
    }
    const installed = isInstalled(filename);
    // An installed package's file may take the lexer's path, a project's never: the output depends on which.
    const key = await TransformCache.keyOf(`${format}:${/\.[cm]?ts$/.test(filename) ? 'ts' : 'js'}:${installed ? 'installed' : 'project'}`, data);
    const cached = this.cache.get(key);
    if (cached) return json(cached);
    const api = await (this.api ??= import('./transform'));
    const source = decoder.decode(data);
    const quick = api.quickTransform(source, filename, format);
    if (quick) return this.keep(key, quick.code === source ? { ...quick, code: undefined } : quick);
    const stored = installed ? await this.stored?.get(key) : undefined;
    if (stored) return this.keep(key, stored);
    let module: TransformedModule;
    try {
      module = api.fullTransform(source, filename, format);
    } catch (error) {
      if (error instanceof api.ModuleSyntaxError) {
        // The parser's message with its position last, as the guest reads it: "Unexpected token (3:7)".
        return { kind: 'error', code: 'ERR_SYNTAX', message: `${error.message} (${error.line}:${error.column})` };
      }
      throw error;
    }
    if (installed) this.stored?.put(key, module);
    return this.keep(key, module);
  }

  private keep(key: string, module: TransformedModule): FsAnswer {
    this.cache.set(key, module);
    return json(module);
  }
}

function isFormat(value: unknown): value is ModuleFormat {
  return value === 'module' || value === 'commonjs';
}

function json(module: TransformedModule): FsAnswer {
  return { kind: 'json', value: module };
}

function invalid(message: string): FsAnswer {
  return { kind: 'error', code: 'ERR_INVALID_ARG_VALUE', message };
}
