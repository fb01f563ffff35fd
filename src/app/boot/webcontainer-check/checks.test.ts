import { afterAll, describe, expect, it } from 'vitest';
import { createEmbeddedRuntime } from '../../../runtime/embedded';
import { createWebContainerApiDouble, createWebContainerDouble, type WebContainerDouble } from '../../../runtime/testing/webcontainer-double';
import { createWebContainerRuntime } from '../../../runtime/webcontainer/webcontainer';
import { bootWebContainerRuntime, forgetWebContainerBootForTests } from '../../../runtime/webcontainer/boot';
import { bootCheck, formatReport, runChecks } from './runner';
import { OFFLINE_CHECK_IDS, WEBCONTAINER_CHECKS } from './checks';

const doubles: WebContainerDouble[] = [];
afterAll(() => {
  for (const double of doubles) if (!double.isTornDown) double.teardown();
});

// The manual check page's checks, against the WebContainer double: what passes here is what the page expects of the
// real thing, so a failure there points at a difference between the double's guesses and WebContainer.
describe('the WebContainer check page, against the double', () => {
  it('passes every check that needs neither the network nor a page', async () => {
    const double = await createWebContainerDouble();
    doubles.push(double);
    const runtime = createWebContainerRuntime(double);
    const checks = WEBCONTAINER_CHECKS.filter((check) => OFFLINE_CHECK_IDS.includes(check.id));
    expect(checks.map((check) => check.id)).toEqual(OFFLINE_CHECK_IDS);
    const results = await runChecks(checks, { runtime, createEmbedded: () => createEmbeddedRuntime(), limits: { busyTimeoutMs: 1000, stopAfterMs: 300 } }, () => undefined);
    const failed = results.filter((result) => !result.ok).map((result) => `${result.id}: ${result.detail}`);
    expect(failed).toEqual([]);
    expect(results.find((r) => r.id === 'exec-strategy')?.detail).toMatch(/^osc-session; --osc session: passed/);
  }, 120_000);

  it('fails a check with what went wrong', async () => {
    const double = await createWebContainerDouble();
    doubles.push(double);
    const runtime = createWebContainerRuntime(double, { exec: 'plain' });
    const [result] = await runChecks(WEBCONTAINER_CHECKS.filter((check) => check.id === 'cd-persists'), { runtime, createEmbedded: () => createEmbeddedRuntime() }, () => undefined);
    expect(result).toMatchObject({ id: 'cd-persists', ok: false });
    expect(result.detail).toBe(`pwd printed ${JSON.stringify(`${double.workdir}\n`)}`);
  });

  it('times the boot, and fails it when WebContainer does not come up in time', async () => {
    const offline = createWebContainerApiDouble({ network: 'unreachable' });
    const failed = await bootCheck(() => bootWebContainerRuntime({}, async () => offline), { crossOriginIsolated: true }, 200);
    expect(failed.result).toMatchObject({ id: 'boot', ok: false, detail: 'WebContainer did not boot within 0.2 s' });
    forgetWebContainerBootForTests();
    const online = createWebContainerApiDouble();
    const booted = await bootCheck(() => bootWebContainerRuntime({}, async () => online), { crossOriginIsolated: true }, 5000);
    expect(booted.result.ok).toBe(true);
    expect(booted.runtime?.kind).toBe('webcontainer');
    forgetWebContainerBootForTests();
    online.booted()?.teardown();
    const notIsolated = await bootCheck(() => Promise.reject(new Error('unreachable')), { crossOriginIsolated: false });
    expect(notIsolated.result.detail).toMatch(/not cross-origin isolated/);
  });

  it('writes a report to paste: one line per check with its timing, then the browser', () => {
    const report = formatReport(
      [
        { id: 'boot', title: 'boots', ok: true, ms: 1234, detail: 'booted' },
        { id: 'exit-codes', title: 'exit codes', ok: false, ms: 56, detail: 'false → 0\nsecond line' },
      ],
      { userAgent: 'Chrome/126', when: new Date('2026-01-02T03:04:05Z') },
    );
    expect(report).toBe(
      [
        'Conch WebContainer check: 1/2 passed',
        'PASS  boot                      1234 ms  boots\n      booted',
        'FAIL  exit-codes                  56 ms  exit codes\n      false → 0\n      second line',
        '',
        'Browser: Chrome/126',
        'When: 2026-01-02T03:04:05.000Z',
      ].join('\n'),
    );
  });
});
