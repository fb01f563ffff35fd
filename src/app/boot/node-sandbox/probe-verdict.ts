// Whether the sandbox frame's probe proves it fit for node's browser engine: an opaque origin with no storage,
// cross-origin isolated, with blob: workers that are isolated too, can block on shared memory and can compile code.
// The reason names the first check that failed, for the runtime details.

import type { FrameProbe } from './frame-document';
import { MAX_ENGINE_HEAP_BYTES } from '../../../runtime/embedded/node/sandbox/sandbox-protocol';

export type ProbeVerdict = { ok: true; reason: string } | { ok: false; reason: string };

export const BROWSER_ENGINE_REASON = "the browser's own engine, in a sandbox frame: an opaque origin with no storage and no network, cross-origin isolated";

/** The verdict on `probe` (undefined: the frame never answered). */
export function probeVerdict(probe: FrameProbe | undefined): ProbeVerdict {
  const failure = firstFailure(probe);
  if (failure) return { ok: false, reason: `QuickJS: ${failure}` };
  return { ok: true, reason: probe?.heapProbe ? `${BROWSER_ENGINE_REASON}, its heap probed (a program past ${MAX_ENGINE_HEAP_BYTES / 1024 ** 3} GB is stopped)` : BROWSER_ENGINE_REASON };
}

function firstFailure(probe: FrameProbe | undefined): string | null {
  if (!probe) return 'the sandbox frame did not answer its probe';
  if (probe.origin !== 'null') return `the sandbox frame's origin is ${probe.origin}, not an opaque one`;
  if (probe.storage !== 'blocked') return "the sandbox frame can reach storage, so it is not sealed off from the page's";
  if (!probe.isolated) return 'the sandbox frame is not cross-origin isolated';
  if (!probe.worker.started) return 'the sandbox frame cannot start blob: workers (this browser blocks them in an opaque origin)';
  if (!probe.worker.isolated) return "the sandbox frame's workers are not cross-origin isolated";
  if (!probe.worker.waited) return "the sandbox frame's workers cannot block on shared memory";
  if (!probe.worker.evaluates) return "the sandbox frame's workers cannot compile code";
  if (probe.worker.storage !== 'blocked') return "the sandbox frame's workers can reach storage";
  return null;
}
