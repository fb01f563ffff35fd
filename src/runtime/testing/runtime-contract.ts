// The behaviour every Runtime must show, as one Vitest suite run against each implementation (embedded/in-process.test.ts,
// webcontainer.test.ts), so the tools can rely on it whichever sandbox the page booted. Its cases, in contract/: files.ts
// (the file methods), exec.ts (commands), zip.ts (snapshots), imports.ts (importFiles and the staged import),
// baseline.ts (git's first commit), scan.ts (scan and applyChanges), watch.ts (change reports), with shells.ts for
// what the runtimes' shells spell differently and bytes.ts, record-watch.ts for what the cases share.

import { afterEach, describe } from 'vitest';
import type { Runtime } from '../types';
import { describeBaselineContract } from './contract/baseline';
import { describeExecContract } from './contract/exec';
import { describeFilesContract } from './contract/files';
import { describeImportFilesContract, describeStagedImportContract } from './contract/imports';
import { describeScanAndApplyContract } from './contract/scan';
import { POSIX_CONTRACT_SHELL, type ContractShell } from './contract/shells';
import { describeChangesBeforeResultContract, describeWatchContract } from './contract/watch';
import { describeZipContract } from './contract/zip';

export { JSH_CONTRACT_SHELL, POSIX_CONTRACT_SHELL, type ContractShell } from './contract/shells';

export type RuntimeContractOptions = {
  /** Extra per-test teardown (the runtime itself is disposed by the suite). */
  cleanup?: () => Promise<void>;
  /** Whether the runtime offers the optional staged import (beginImport); default true. */
  stagedImport?: boolean;
  /** Whether the runtime has git, making the baseline given to setBaseline its first commit; default true. */
  gitBaseline?: boolean;
  /** How the runtime's shell spells what shells spell differently; default POSIX_CONTRACT_SHELL. */
  shell?: ContractShell;
  /** Whether the runtime offers the optional scan and applyChanges; default true. */
  scanAndApply?: boolean;
  /** Whether a command's changes reach the watchers before its exec resolves (and flushChanges exists); default false. */
  changesBeforeResult?: boolean;
};

/** Registers the shared Runtime behaviour tests for `makeRuntime` under `name`. */
export function describeRuntimeContract(
  name: string,
  makeRuntime: () => Runtime | Promise<Runtime>,
  options: RuntimeContractOptions = {},
): void {
  const shell = options.shell ?? POSIX_CONTRACT_SHELL;
  describe(`Runtime contract: ${name}`, () => {
    let current: Runtime | undefined;
    const fresh = async () => (current = await makeRuntime());

    afterEach(async () => {
      await current?.dispose();
      current = undefined;
      await options.cleanup?.();
    });

    describeFilesContract(fresh);
    describeExecContract(fresh, shell);
    describeZipContract(fresh);
    describeImportFilesContract(fresh);
    // The optional parts are asked only of the runtimes that offer them (nothing is skipped): the staged import, and
    // git (the embedded runtime has it; a WebContainer has none).
    if (options.stagedImport !== false) describeStagedImportContract(fresh);
    if (options.gitBaseline !== false) describeBaselineContract(fresh);
    if (options.scanAndApply !== false) describeScanAndApplyContract(fresh);
    if (options.changesBeforeResult) describeChangesBeforeResultContract(fresh);
    describeWatchContract(fresh);
  });
}
