// The relay's side of the heap probe: the frame measures each of its workers' heaps (where the browser can) and tells
// the relay; a running program past the browser engine's limit is ended with Node's out-of-memory words, the others
// go on, and figures that are not what the frame sends change nothing.

import { describe, expect, it } from 'vitest';
import { startRelay, type RelayEngineWorker } from './relay';
import { MAX_ENGINE_HEAP_BYTES, type RelayToHost } from './sandbox-protocol';

function relayWithTwoRuns() {
  const toHost: RelayToHost[] = [];
  let hostListener: (data: unknown) => void = () => {};
  const terminated: string[] = [];
  let next = 0;
  const spawn = (): RelayEngineWorker => {
    const url = `blob:null/engine-${next++}`;
    return { url, post: () => {}, onMessage: () => {}, onError: () => {}, terminate: () => terminated.push(url) };
  };
  const relay = startRelay({ post: (message) => toHost.push(message), onMessage: (listener) => (hostListener = listener) }, spawn);
  hostListener({ type: 'init', engine: 'engine source', guest: { core: 'core', packages: {} } });
  for (const worker of [1, 2]) {
    hostListener({ type: 'start', worker });
    hostListener({ type: 'run', worker, id: worker * 10, job: {} });
  }
  hostListener({ type: 'start', worker: 3 }); // started, idle: no program to stop
  return { relay, toHost, terminated };
}

describe('the relay and the heap probe', () => {
  it('ends only the running program whose heap passed the limit, saying so as Node would', () => {
    const { relay, toHost, terminated } = relayWithTwoRuns();
    relay.heapMeasured([
      ['blob:null/engine-0', MAX_ENGINE_HEAP_BYTES + 1],
      ['blob:null/engine-1', MAX_ENGINE_HEAP_BYTES - 1],
      ['blob:null/engine-2', MAX_ENGINE_HEAP_BYTES * 2],
      ['about:srcdoc', MAX_ENGINE_HEAP_BYTES * 2],
    ]);
    expect(terminated).toEqual(['blob:null/engine-0']);
    expect(toHost).toEqual([{ type: 'exit', worker: 1, reason: expect.stringMatching(/^JavaScript heap out of memory: the program's heap reached 2\.0 GB, past the browser engine's 2\.0 GB limit$/) }]);
  });

  it('changes nothing for figures that are not the frame\'s', () => {
    const { relay, toHost, terminated } = relayWithTwoRuns();
    for (const sizes of [null, 'blob:null/engine-0', {}, [['blob:null/engine-0', '9999999999']], [['blob:null/engine-0', Number.NaN]], [[42, MAX_ENGINE_HEAP_BYTES * 2]], [null]]) relay.heapMeasured(sizes);
    expect({ toHost, terminated }).toEqual({ toHost: [], terminated: [] });
  });
});
