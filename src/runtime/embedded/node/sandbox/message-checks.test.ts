// Everything that comes back from the sandbox frame is untrusted. The checks rebuild good messages field by field,
// drop malformed ones without throwing, and the relay and the host survive a flood of garbage from either side.

import { describe, expect, it } from 'vitest';
import { checkEngineMessage, checkFsRequest } from './message-checks';
import { startRelay, type RelayEngineWorker } from './relay';
import { SandboxEngine } from './sandbox-engine';
import type { RelayToHost } from './sandbox-protocol';

/** Deterministic garbage: nested values of every kind, odd shapes of the real messages, huge and hostile fields. */
function garbage(seed: number, depth = 0): unknown {
  const pick = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
  const kinds = [
    () => null,
    () => undefined,
    () => pick(1e9) - 5e8,
    () => Number.NaN,
    () => 'x'.repeat(pick(40)),
    () => ({ type: ['ready', 'output', 'fs', 'done', 'fs-grow', 'retire', 'init-failed', 'exit', 'from-engine'][pick(9)], id: garbage(seed + 1, depth + 1), worker: pick(4), chunks: garbage(seed + 2, depth + 1), request: garbage(seed + 3, depth + 1), message: garbage(seed + 4, depth + 1), exitCode: garbage(seed + 5, depth + 1), broken: pick(2) === 0, tests: garbage(seed + 6, depth + 1) }),
    () => (depth > 3 ? [] : [garbage(seed + 7, depth + 1), garbage(seed + 8, depth + 1)]),
    () => ({ op: 'readFile', args: depth > 3 ? 1 : [garbage(seed + 9, depth + 1)], data: pick(2) ? new Uint8Array(3) : 'bytes' }),
    () => new SharedArrayBuffer(8),
    () => ({ get type() { throw new Error('getter'); } }),
  ];
  return kinds[pick(kinds.length)]();
}

describe('the checks of what the sandbox frame sends', () => {
  it('rebuild a good message from its fields only, leaving anything extra behind', () => {
    const output = checkEngineMessage({ type: 'output', id: 3, chunks: [[1, 'hi\n'], [2, 'oops\n']], extra: { evil: true } });
    expect(output).toEqual({ type: 'output', id: 3, chunks: [[1, 'hi\n'], [2, 'oops\n']] });
    const done = checkEngineMessage({ type: 'done', id: 3, exitCode: 2, heapBytes: -1, broken: false, tests: { tests: 1, suites: 0, pass: 1, fail: 0, cancelled: 0, skipped: 0, todo: 0, topLevel: 1, more: 9 } });
    expect(done).toEqual({ type: 'done', id: 3, exitCode: 2, heapBytes: 0, broken: false, tests: { tests: 1, suites: 0, pass: 1, fail: 0, cancelled: 0, skipped: 0, todo: 0, topLevel: 1 } });
    const getter = { op: 'stat', args: ['/a'] };
    Object.defineProperty(getter.args, 1, { get: () => 'from a getter', enumerable: true });
    expect(checkFsRequest(getter)).toEqual({ op: 'stat', args: ['/a', 'from a getter'] });
  });

  it('drop malformed, oversized and foreign messages', () => {
    expect(checkEngineMessage({ type: 'output', id: 0, chunks: [] })).toBeNull();
    expect(checkEngineMessage({ type: 'output', id: 1, chunks: [[3, 'x']] })).toBeNull();
    expect(checkEngineMessage({ type: 'output', id: 1, chunks: [[1, 'x'.repeat(65 * 1024 * 1024)]] })).toBeNull();
    expect(checkEngineMessage({ type: 'done', id: 1, exitCode: 1.5, broken: false })).toBeNull();
    expect(checkEngineMessage({ type: 'done', id: 1, exitCode: 0, broken: false, tests: { tests: -1 } })).toBeNull();
    expect(checkEngineMessage({ type: 'fs-grow', id: 1, reply: new SharedArrayBuffer(8) })).toBeNull();
    expect(checkEngineMessage({ type: 'fs', id: 1, request: { op: 'x'.repeat(101), args: [] } })).toBeNull();
    expect(checkEngineMessage({ type: 'fs', id: 1, request: { op: 'readFile', args: ['/a'], data: new Uint8Array(new SharedArrayBuffer(4)) } })).toBeNull();
    const cycle: unknown[] = [];
    cycle.push(cycle);
    expect(checkFsRequest({ op: 'stat', args: cycle })).toBeNull();
    expect(checkEngineMessage({ type: 'eval', code: 'alert(1)' })).toBeNull();
  });

  it('never throw, whatever arrives', () => {
    for (let seed = 1; seed < 3000; seed++) {
      const value = garbage(seed);
      expect(() => checkEngineMessage(value)).not.toThrow();
      expect(() => checkFsRequest(value)).not.toThrow();
    }
  });
});

describe('the relay and the host under a flood of garbage', () => {
  it('keep serving: a real engine still starts and answers after thousands of malformed messages from both sides', async () => {
    const hostSide: { listener?: (data: unknown) => void } = {};
    const relaySide: { listener?: (data: unknown) => void } = {};
    const engines: { listener?: (data: unknown) => void }[] = [];
    // The relay's engine workers are doubles that answer 'ready' and echo the run's exit.
    const spawn = (): RelayEngineWorker => {
      const engine: { listener?: (data: unknown) => void } = {};
      engines.push(engine);
      return {
        post: (message) => {
          if (message.type === 'init') queueMicrotask(() => engine.listener?.({ type: 'ready' }));
          if (message.type === 'run') queueMicrotask(() => engine.listener?.({ type: 'done', id: message.id, exitCode: 5, heapBytes: 0, broken: false }));
        },
        onMessage: (listener) => (engine.listener = listener),
        onError: () => {},
        terminate: () => {},
      };
    };
    startRelay({ post: (message: RelayToHost) => queueMicrotask(() => hostSide.listener?.(message)), onMessage: (listener) => (relaySide.listener = listener) }, spawn);
    const host = new SandboxEngine({ post: (message) => queueMicrotask(() => relaySide.listener?.(message)), onMessage: (listener) => (hostSide.listener = listener) }, '', { core: '', packages: {} });

    const first = await host.start();
    for (let seed = 1; seed < 2000; seed++) {
      expect(() => relaySide.listener?.(garbage(seed))).not.toThrow(); // as if from the host
      expect(() => engines[0].listener?.(garbage(seed + 7))).not.toThrow(); // as if from the program
      expect(() => hostSide.listener?.(garbage(seed + 13))).not.toThrow(); // as if from the frame
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
    const second = await host.start();
    const exit = new Promise<number>((resolve) => second.onMessage((message) => message.type === 'done' && resolve(message.exitCode)));
    second.startRun(77, { entry: { kind: 'eval', code: '1', print: false, module: false }, argv: [], execArgv: [], cwd: '/', env: {}, stdin: '', testOnly: false, testNumberOffset: 0, memoryLimitBytes: 1, modules: 'transform' });
    expect(await exit).toBe(5);
    first.terminate();
    second.terminate();
  });
});
