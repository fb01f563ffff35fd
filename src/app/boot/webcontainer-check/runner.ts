// The manual WebContainer check (check-webcontainer.html, `npm run check:webcontainer`): nothing in Conch's own test
// machinery reaches stackblitz.com, so a person with internet runs these checks against the real thing in Chrome and
// pastes the report. This file runs checks one by one with their timings and writes the report; the checks
// themselves are in checks.ts.

import { errorText } from '../../../ai/messages';
import type { WebContainerRuntime } from '../../../runtime/webcontainer/webcontainer';

/** One check's outcome. */
export type CheckResult = { id: string; title: string; ok: boolean; ms: number; detail: string };

/** A check: resolves with what it saw, throws (with a message saying what went wrong) when it fails. */
export type WebContainerCheck<Context> = { id: string; title: string; run(context: Context): Promise<string> };

export const BOOT_CHECK_TIMEOUT_MS = 20_000;

/** Runs `run`, timing it; a throw is a failure with its message. */
export async function runCheck(id: string, title: string, run: () => Promise<string>): Promise<CheckResult> {
  const started = performance.now();
  try {
    const detail = await run();
    return { id, title, ok: true, ms: Math.round(performance.now() - started), detail };
  } catch (error) {
    return { id, title, ok: false, ms: Math.round(performance.now() - started), detail: errorText(error) };
  }
}

/** Runs `checks` in order, reporting each result as it comes. */
export async function runChecks<Context>(
  checks: readonly WebContainerCheck<Context>[],
  context: Context,
  onResult: (result: CheckResult) => void,
): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const check of checks) {
    const result = await runCheck(check.id, check.title, () => check.run(context));
    results.push(result);
    onResult(result);
  }
  return results;
}

/** Boots the page's WebContainer within `timeoutMs`, as a check; the runtime comes along when it passed. */
export async function bootCheck(
  boot: () => Promise<WebContainerRuntime>,
  page: { crossOriginIsolated: boolean },
  timeoutMs = BOOT_CHECK_TIMEOUT_MS,
): Promise<{ result: CheckResult; runtime: WebContainerRuntime | undefined }> {
  let runtime: WebContainerRuntime | undefined;
  const result = await runCheck('boot', `WebContainer boots within ${timeoutMs / 1000} s on the isolated page`, async () => {
    if (!page.crossOriginIsolated) throw new Error('The page is not cross-origin isolated (COOP/COEP headers missing), so WebContainer cannot boot.');
    runtime = await withDeadline(boot(), timeoutMs, `WebContainer did not boot within ${timeoutMs / 1000} s`);
    return `booted; workdir ${runtime.workdir}`;
  });
  return { result, runtime };
}

/** The report a person pastes: one line per check, then the environment. */
export function formatReport(results: readonly CheckResult[], environment: { userAgent: string; when: Date }): string {
  const passed = results.filter((r) => r.ok).length;
  const lines = [
    `Conch WebContainer check: ${passed}/${results.length} passed`,
    ...results.map((r) => `${r.ok ? 'PASS' : 'FAIL'}  ${r.id.padEnd(22)} ${String(r.ms).padStart(7)} ms  ${r.title}\n      ${r.detail.replace(/\n/g, '\n      ')}`),
    '',
    `Browser: ${environment.userAgent}`,
    `When: ${environment.when.toISOString()}`,
  ];
  return lines.join('\n');
}

/** `promise`, or a rejection with `message` after `ms`. */
export function withDeadline<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/** Resolves once `condition()` holds (looked at every 100 ms: what it reads has no events), or rejects after `ms`. */
export async function waitFor(condition: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${ms / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
