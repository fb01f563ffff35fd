// What the page answers when the worker asks it for something it keeps: the imported baseline's files (git is
// about to make its first commit of them), npm's registry setting and tarball cache (in the page's storage), and
// `git push` (the page asks the person and sends).

import type { GitPushHost, GitPushRequest, WorkspaceBaseline } from '../types';
import type { NpmEnvironment } from './npm/environment';
import { packFiles } from './packed-files';
import type { NpmHostCall, ToWorker } from './protocol';

/** The page's side of the conversation with its worker; `live` is false once the worker was ended or disposed. */
export type WorkerLine = {
  post(message: ToWorker, transfer?: Transferable[]): void;
  live(): boolean;
};

/** Answers baseline-files-needed `request` with the baseline's files, or with why there are none. */
export async function answerBaselineFiles(baseline: WorkspaceBaseline | null, request: number, line: WorkerLine): Promise<void> {
  try {
    if (!baseline) throw new Error('this workspace has no imported baseline any more');
    const files = await baseline.files();
    const packed = packFiles(files);
    const blobIds = files.every((file) => file.blobId !== undefined) ? files.map((file) => file.blobId!) : undefined;
    line.post({ type: 'baseline-files', request, ...packed, ...(blobIds ? { blobIds } : {}) }, [packed.bytes]);
  } catch (error) {
    if (!line.live()) return;
    line.post({ type: 'baseline-files-failed', request, message: error instanceof Error ? error.message : String(error) });
  }
}

/** Answers npm-host-call `request` from the page's npm environment. */
export async function answerNpmCall(npm: NpmEnvironment | undefined, request: number, call: NpmHostCall, line: WorkerLine): Promise<void> {
  try {
    if (!npm) throw new Error('this page gave npm no registry or cache');
    let value: string | Uint8Array | undefined;
    if (call.op === 'registry') value = await npm.registry();
    else if (call.op === 'cache-get') value = await npm.cache.get(call.key);
    else await npm.cache.put(call.key, call.data);
    if (line.live()) line.post({ type: 'npm-host-reply', request, value });
  } catch (error) {
    if (line.live()) line.post({ type: 'npm-host-failed', request, message: error instanceof Error ? error.message : String(error) });
  }
}

/** The page's answers to the shell's `git push`, each stoppable while the person is still being asked. */
export class GitPushAnswers {
  private readonly running = new Map<number, AbortController>();

  /** Answers git-push `request` through `host` (none: the page cannot push). */
  async answer(host: GitPushHost | undefined, request: number, push: GitPushRequest, line: WorkerLine): Promise<void> {
    const controller = new AbortController();
    this.running.set(request, controller);
    try {
      const answer = host ? await host(push, controller.signal) : { pushed: false as const, message: 'this page cannot push: git push has no remote to reach.' };
      if (line.live()) line.post({ type: 'git-push-reply', request, answer });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (line.live()) line.post({ type: 'git-push-reply', request, answer: { pushed: false, message } });
    } finally {
      this.running.delete(request);
    }
  }

  /** The command was stopped: its question is withdrawn (a push already under way finishes or fails on its own). */
  stop(request: number): void {
    this.running.get(request)?.abort();
  }
}
