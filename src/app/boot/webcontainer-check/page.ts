// What the manual check page does, without its DOM: boot the real WebContainer, run every check, and (after the page
// reloaded itself) the reload check. The page (src/ui/check) renders results and keeps them across the reload.

import { createEmbeddedRuntime } from '../../../runtime/embedded';
import { bootWebContainer, bootWebContainerRuntime } from '../../../runtime/webcontainer/boot';
import { bootCheck, runCheck, runChecks, type CheckResult } from './runner';
import { WEBCONTAINER_CHECKS } from './checks';

export type CheckPageHooks = {
  crossOriginIsolated: boolean;
  /** Shows a URL in a preview iframe; returns a function that removes it. */
  openPreview: (url: string) => () => void;
  onResult: (result: CheckResult) => void;
};

/** Boots WebContainer and runs every check after it (none when the boot failed). */
export async function runWebContainerChecks(hooks: CheckPageHooks): Promise<CheckResult[]> {
  const boot = await bootCheck(() => bootWebContainerRuntime(), { crossOriginIsolated: hooks.crossOriginIsolated });
  hooks.onResult(boot.result);
  if (!boot.runtime) return [boot.result];
  const context = { runtime: boot.runtime, createEmbedded: () => createEmbeddedRuntime(), openPreview: hooks.openPreview };
  return [boot.result, ...(await runChecks(WEBCONTAINER_CHECKS, context, hooks.onResult))];
}

/** After the page reloaded itself: WebContainer boots again, and asking for it twice in one page gives the same one. */
export function runReloadCheck(hooks: Pick<CheckPageHooks, 'crossOriginIsolated'>): Promise<CheckResult> {
  return runCheck('reload', 'After a reload WebContainer boots again (no "WebContainer already booted")', async () => {
    const boot = await bootCheck(() => bootWebContainerRuntime(), hooks);
    if (!boot.runtime) throw new Error(boot.result.detail);
    const again = await bootWebContainer();
    if (again !== boot.runtime.container) throw new Error('asking for WebContainer twice in one page gave two instances');
    return `booted again in ${boot.result.ms} ms; a second request in the page got the same instance`;
  });
}
