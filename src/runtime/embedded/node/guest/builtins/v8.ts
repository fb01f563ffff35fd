// `v8` inside the guest: what tools ask of it to decide how to behave (heap size, whether a snapshot is being built),
// answered for QuickJS. serialize/deserialize use JSON through Buffers, enough for tools that cache plain data.

import { bufferModule } from '../modules/packages';

/** Builds the v8 module; `heapUsed` and `heapLimit` are the engine's bytes in use and its memory cap. */
export function createV8(heapUsed: () => number, heapLimit: number): Record<string, unknown> {
  const statistics = () => {
    const used = heapUsed();
    return {
      total_heap_size: used,
      total_heap_size_executable: 0,
      total_physical_size: used,
      total_available_size: Math.max(0, heapLimit - used),
      used_heap_size: used,
      heap_size_limit: heapLimit,
      malloced_memory: 0,
      peak_malloced_memory: 0,
      does_zap_garbage: 0,
      number_of_native_contexts: 1,
      number_of_detached_contexts: 0,
      total_global_handles_size: 0,
      used_global_handles_size: 0,
      external_memory: 0,
    };
  };
  return {
    getHeapStatistics: statistics,
    getHeapSpaceStatistics: () => [],
    getHeapCodeStatistics: () => ({ code_and_metadata_size: 0, bytecode_and_metadata_size: 0, external_script_source_size: 0, cpu_profiler_metadata_size: 0 }),
    cachedDataVersionTag: () => 0,
    setFlagsFromString: () => undefined,
    setHeapSnapshotNearHeapLimit: () => undefined,
    serialize: (value: unknown) => bufferModule().Buffer.from(JSON.stringify(value)),
    deserialize: (bytes: Uint8Array) => JSON.parse(bufferModule().Buffer.from(bytes).toString()) as unknown,
    startupSnapshot: {
      isBuildingSnapshot: () => false,
      addSerializeCallback: () => undefined,
      addDeserializeCallback: () => undefined,
      setDeserializeMainFunction: () => undefined,
    },
  };
}
