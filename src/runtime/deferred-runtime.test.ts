import { describe, expect, it } from 'vitest';
import { createDeferredRuntime } from './deferred-runtime';
import { createEmbeddedRuntime, DEFAULT_WORKDIR } from './embedded';
import { describeRuntimeContract } from './runtime-contract';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const expected = { kind: 'embedded' as const, workdir: DEFAULT_WORKDIR };

describeRuntimeContract('deferred (handed over at once)', () => {
  const deferred = createDeferredRuntime(expected);
  deferred.resolve(createEmbeddedRuntime());
  return deferred.runtime;
});

describeRuntimeContract('deferred (handed over a moment later)', () => {
  const deferred = createDeferredRuntime(expected);
  setTimeout(() => deferred.resolve(createEmbeddedRuntime()), 5);
  return deferred.runtime;
});

describe('createDeferredRuntime', () => {
  it('holds calls made before the hand-over and runs them, in order, on the real runtime', async () => {
    const deferred = createDeferredRuntime(expected);
    const order: string[] = [];
    const write = deferred.runtime.writeFile('early.txt', 'first').then(() => order.push('write'));
    const exec = deferred.runtime.exec('cat early.txt').then((r) => {
      order.push('exec');
      return r.output;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(order).toEqual([]); // nothing ran yet
    const real = createEmbeddedRuntime();
    deferred.resolve(real);
    await write;
    expect(await exec).toBe('first');
    expect(order).toEqual(['write', 'exec']);
    expect(text(await real.readFile('early.txt'))).toBe('first');
  });

  it('fails waiting and later calls with the reason the runtime could not be prepared', async () => {
    const deferred = createDeferredRuntime(expected);
    const early = deferred.runtime.readdir('.');
    deferred.reject(new Error('The sandbox could not start: no workers.'));
    await expect(early).rejects.toThrow(/could not start: no workers/);
    await expect(deferred.runtime.readFile('a.txt')).rejects.toThrow(/could not start/);
    deferred.resolve(createEmbeddedRuntime()); // too late: the failure stands
    await expect(deferred.runtime.stat('.')).rejects.toThrow(/could not start/);
  });

  it('reports the expected kind and workdir until the hand-over, then the real ones', () => {
    const deferred = createDeferredRuntime(expected);
    expect(deferred.runtime.workdir).toBe(DEFAULT_WORKDIR);
    deferred.resolve(createEmbeddedRuntime({ workdir: '/srv/other' }));
    expect(deferred.runtime.workdir).toBe('/srv/other');
  });

  it('attaches watchers registered early, and lets them go', async () => {
    const deferred = createDeferredRuntime(expected);
    const seen: string[] = [];
    const stop = deferred.runtime.watch((paths) => seen.push(...paths));
    const real = createEmbeddedRuntime();
    deferred.resolve(real);
    await real.writeFile('watched.txt', 'x');
    const deadline = Date.now() + 2000;
    while (!seen.includes('watched.txt') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(seen).toContain('watched.txt');
    stop();
    seen.length = 0;
    await real.writeFile('unwatched.txt', 'x');
    await new Promise((r) => setTimeout(r, 150));
    expect(seen).toEqual([]);
  });

  it('imports files through a zip when the real runtime cannot take them directly', async () => {
    const deferred = createDeferredRuntime(expected);
    const real = createEmbeddedRuntime();
    deferred.resolve({ ...real, kind: real.kind, workdir: real.workdir, importFiles: undefined, watch: real.watch.bind(real), importZip: real.importZip.bind(real) });
    await deferred.runtime.importFiles!([{ path: 'z/a.txt', data: new TextEncoder().encode('via zip') }]);
    expect(text(await real.readFile('z/a.txt'))).toBe('via zip');
  });
});
