// What comes back from the sandbox frame is untrusted: a program there can post anything its engine worker can. Each
// message is rebuilt from checked fields (types, sizes, counts) or dropped; nothing the frame sent is used as is.

import type { EngineToHost, FsRequest, TestCounts } from '../engine/protocol';

const MAX_OUTPUT_CHARS = 64 * 1024 * 1024;
const MAX_CHUNKS = 100_000;
const MAX_OP_CHARS = 100;
const MAX_ARGS_JSON_CHARS = 8 * 1024 * 1024;
const MAX_DATA_BYTES = 1024 * 1024 * 1024;
const MAX_TEXT_CHARS = 8 * 1024;
const TEST_COUNT_KEYS = ['tests', 'suites', 'pass', 'fail', 'cancelled', 'skipped', 'todo', 'topLevel'] as const;

type Loose = Record<string, unknown>;

/** The engine message `value` stands for, rebuilt from checked fields; null when it is not one (fs-grow included: that one stays in the frame). */
export function checkEngineMessage(value: unknown): EngineToHost | null {
  try {
    return rebuild(value);
  } catch {
    return null; // a getter that throws, a proxy: nothing a structured clone makes, so nothing to serve
  }
}

function rebuild(value: unknown): EngineToHost | null {
  if (!isRecord(value) || typeof value.type !== 'string') return null;
  switch (value.type) {
    case 'ready':
    case 'retire':
      return { type: value.type };
    case 'init-failed':
      return { type: 'init-failed', message: text(value.message) };
    case 'output': {
      if (!isRunId(value.id) || !Array.isArray(value.chunks) || value.chunks.length > MAX_CHUNKS) return null;
      const chunks: [1 | 2, string][] = [];
      let total = 0;
      for (const chunk of value.chunks as unknown[]) {
        if (!Array.isArray(chunk) || chunk.length !== 2 || (chunk[0] !== 1 && chunk[0] !== 2) || typeof chunk[1] !== 'string') return null;
        total += chunk[1].length;
        if (total > MAX_OUTPUT_CHARS) return null;
        chunks.push([chunk[0], chunk[1]]);
      }
      return { type: 'output', id: value.id, chunks };
    }
    case 'fs': {
      const request = checkFsRequest(value.request);
      return isRunId(value.id) && request ? { type: 'fs', id: value.id, request } : null;
    }
    case 'done': {
      if (!isRunId(value.id) || !Number.isInteger(value.exitCode) || typeof value.broken !== 'boolean') return null;
      const exitCode = value.exitCode as number;
      if (exitCode < -(2 ** 31) || exitCode >= 2 ** 31) return null;
      const heapBytes = typeof value.heapBytes === 'number' && Number.isFinite(value.heapBytes) && value.heapBytes >= 0 ? value.heapBytes : 0;
      const tests = value.tests === undefined ? undefined : checkTestCounts(value.tests);
      if (tests === null) return null;
      return { type: 'done', id: value.id, exitCode, heapBytes, broken: value.broken, ...(tests ? { tests } : {}) };
    }
    default:
      return null;
  }
}

/** A file-system (or child-process, or host) request: an op name, JSON-safe arguments, and optional bytes. */
export function checkFsRequest(value: unknown): FsRequest | null {
  try {
    return rebuildRequest(value);
  } catch {
    return null;
  }
}

function rebuildRequest(value: unknown): FsRequest | null {
  if (!isRecord(value) || typeof value.op !== 'string' || value.op.length === 0 || value.op.length > MAX_OP_CHARS || !Array.isArray(value.args)) return null;
  let args: unknown[];
  try {
    // Through JSON and back: plain data only, no getters, no cycles, no shared memory, bounded in size.
    const json = JSON.stringify(value.args);
    if (json === undefined || json.length > MAX_ARGS_JSON_CHARS) return null;
    args = JSON.parse(json) as unknown[];
  } catch {
    return null;
  }
  if (value.data === undefined) return { op: value.op, args };
  if (!(value.data instanceof Uint8Array) || value.data.byteLength > MAX_DATA_BYTES || !(value.data.buffer instanceof ArrayBuffer)) return null;
  return { op: value.op, args, data: value.data };
}

function checkTestCounts(value: unknown): TestCounts | null {
  if (!isRecord(value)) return null;
  const counts = {} as TestCounts;
  for (const key of TEST_COUNT_KEYS) {
    const count = value[key];
    if (!Number.isSafeInteger(count) || (count as number) < 0) return null;
    counts[key] = count as number;
  }
  return counts;
}

function isRecord(value: unknown): value is Loose {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isRunId(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) > 0;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.slice(0, MAX_TEXT_CHARS) : 'unknown';
}
