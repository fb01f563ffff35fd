// Which engine node gets: the browser's own only when every check of the frame's probe holds, QuickJS otherwise,
// with the first failing check named; and the frame's document carries the CSP and a script that stands alone.

import { describe, expect, it } from 'vitest';
import { FRAME_CSP, sandboxFrameDocument, type FrameProbe } from './frame-document';
import { BROWSER_ENGINE_REASON, probeVerdict } from './probe-verdict';

const sealed: FrameProbe = {
  origin: 'null',
  isolated: true,
  storage: 'blocked',
  worker: { started: true, isolated: true, waited: true, evaluates: true, storage: 'blocked' },
};

describe("the sandbox frame's probe verdict", () => {
  it('chooses the browser engine when every check holds', () => {
    expect(probeVerdict(sealed)).toEqual({ ok: true, reason: BROWSER_ENGINE_REASON });
    expect(probeVerdict({ ...sealed, heapProbe: true })).toEqual({ ok: true, reason: `${BROWSER_ENGINE_REASON}, its heap probed (a program past 2 GB is stopped)` });
  });

  it('falls back to QuickJS naming the first check that failed', () => {
    const cases: [FrameProbe | undefined, RegExp][] = [
      [undefined, /did not answer/],
      [{ ...sealed, origin: 'http://127.0.0.1:4317' }, /origin is http:\/\/127\.0\.0\.1:4317, not an opaque one/],
      [{ ...sealed, storage: 'reachable' }, /can reach storage/],
      [{ ...sealed, isolated: false }, /not cross-origin isolated/],
      [{ ...sealed, worker: { ...sealed.worker, started: false } }, /cannot start blob: workers/],
      [{ ...sealed, worker: { ...sealed.worker, isolated: false } }, /workers are not cross-origin isolated/],
      [{ ...sealed, worker: { ...sealed.worker, waited: false } }, /cannot block on shared memory/],
      [{ ...sealed, worker: { ...sealed.worker, evaluates: false } }, /cannot compile code/],
      [{ ...sealed, worker: { ...sealed.worker, storage: 'reachable' } }, /workers can reach storage/],
    ];
    for (const [probe, why] of cases) {
      const verdict = probeVerdict(probe);
      expect(verdict.ok).toBe(false);
      expect(verdict.reason).toMatch(/^QuickJS: /);
      expect(verdict.reason).toMatch(why);
    }
  });
});

describe("the sandbox frame's document", () => {
  it('allows inline and blob: scripts only, and its script compiles on its own', () => {
    expect(FRAME_CSP).toBe("default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval' blob:; worker-src blob:");
    const html = sandboxFrameDocument();
    expect(html).toContain(`content="${FRAME_CSP}"`);
    const script = /<script>([\s\S]*)<\/script>/.exec(html)?.[1] ?? '';
    expect(script).toMatch(/^\(function frameScript\(\)|^\(frameScript|^\(function/);
    expect(() => new Function(script)).not.toThrow();
    expect(script).not.toMatch(/\bimport\b|\brequire\(/);
  });
});
