// Which sandbox the page runs: WebContainer when it can boot, else the embedded runtime with a visible notice.
// Plain TypeScript (the UI renders `state`); WebContainer's boot() never settles when stackblitz.com is unreachable,
// so every boot attempt is raced with a timeout and never awaited past it.

import type { Runtime } from '../runtime/types';

export type RuntimeKind = 'webcontainer' | 'embedded';
export type RuntimePreference = 'auto' | 'webcontainer' | 'embedded';
export type BootFailureReason = 'not-cross-origin-isolated' | 'unsupported-browser' | 'timed-out' | 'error';

export type BootState =
  | { state: 'booting'; kind: RuntimeKind; canRetryWebContainer: false }
  | { state: 'ready'; kind: RuntimeKind; notice?: string; reason?: BootFailureReason; canRetryWebContainer: boolean }
  | { state: 'failed'; kind: RuntimeKind; reason: BootFailureReason; message: string; canRetryWebContainer: boolean };

export type BootResult = { runtime: Runtime; kind: RuntimeKind; notice?: string };

export type RuntimeBootOptions = {
  /** Boots (or returns the page's already booting) WebContainer as a Runtime; see runtime/webcontainer-boot.ts. */
  bootWebContainer: () => Promise<Runtime>;
  createEmbedded: () => Promise<Runtime>;
  /** Default 20 s. */
  timeoutMs?: number;
  /** Defaults to `globalThis.crossOriginIsolated`. */
  isolated?: boolean;
  /** Defaults to a check for SharedArrayBuffer and WebAssembly. */
  supported?: boolean;
};

export const DEFAULT_BOOT_TIMEOUT_MS = 20_000;

/** Thrown when the person forced WebContainer and it could not start (no silent fallback against their choice). */
export class RuntimeBootError extends Error {
  constructor(
    readonly reason: BootFailureReason,
    message: string,
  ) {
    super(message);
    this.name = 'RuntimeBootError';
  }
}

/** Boots once with the given preference; a one-shot form of RuntimeBoot. */
export function bootRuntime(options: RuntimeBootOptions & { preference?: RuntimePreference }): Promise<BootResult> {
  return new RuntimeBoot(options).boot(options.preference ?? 'auto');
}

/** The boot state machine: booting -> ready | failed, observable, with a "try WebContainer again" entry point. */
export class RuntimeBoot {
  private current: BootState = { state: 'booting', kind: 'webcontainer', canRetryWebContainer: false };
  private readonly listeners = new Set<(state: BootState) => void>();
  private runtime: Runtime | undefined;

  constructor(private readonly options: RuntimeBootOptions) {}

  get state(): BootState {
    return this.current;
  }

  /** Calls `listener` on every state change; returns the unsubscribe function. */
  subscribe(listener: (state: BootState) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /**
   * Starts the preferred runtime. 'auto' falls back to embedded (with a notice) when WebContainer cannot start;
   * a forced 'webcontainer' ends in the failed state and throws RuntimeBootError instead.
   */
  async boot(preference: RuntimePreference = 'auto'): Promise<BootResult> {
    if (preference === 'embedded') return this.startEmbedded(undefined);
    const attempt = await this.tryWebContainer();
    if (attempt.ok) return this.ready({ runtime: attempt.runtime, kind: 'webcontainer' });
    if (preference === 'webcontainer') {
      this.set({ state: 'failed', kind: 'webcontainer', reason: attempt.reason, message: attempt.message, canRetryWebContainer: true });
      throw new RuntimeBootError(attempt.reason, attempt.message);
    }
    return this.startEmbedded(attempt);
  }

  /**
   * Tries WebContainer again (the page's pending boot is reused, never a second one). On success the workspace of
   * the runtime in use is carried over through a snapshot zip; on failure the current runtime stays and the state
   * says why.
   */
  async retryWebContainer(): Promise<BootResult | undefined> {
    const previous = this.runtime;
    const previousState = this.current;
    const attempt = await this.tryWebContainer();
    if (!attempt.ok) {
      if (previous && previousState.state === 'ready') {
        this.set({
          state: 'ready',
          kind: previousState.kind,
          notice: `WebContainer still could not start: ${attempt.message} Still using the embedded runtime.`,
          reason: attempt.reason,
          canRetryWebContainer: true,
        });
      } else {
        this.set({ state: 'failed', kind: 'webcontainer', reason: attempt.reason, message: attempt.message, canRetryWebContainer: true });
      }
      return undefined;
    }
    if (previous && previous !== attempt.runtime) {
      await attempt.runtime.importZip(await previous.exportZip());
    }
    return this.ready({ runtime: attempt.runtime, kind: 'webcontainer' });
  }

  private async startEmbedded(
    fallbackFrom: { reason: BootFailureReason; message: string } | undefined,
  ): Promise<BootResult> {
    this.set({ state: 'booting', kind: 'embedded', canRetryWebContainer: false });
    let runtime: Runtime;
    try {
      runtime = await this.options.createEmbedded();
    } catch (error) {
      const message = `The embedded runtime could not start: ${errorText(error)}. Reload the page to try again.`;
      this.set({ state: 'failed', kind: 'embedded', reason: 'error', message, canRetryWebContainer: fallbackFrom !== undefined });
      throw new RuntimeBootError('error', message);
    }
    const notice = fallbackFrom ? `${fallbackFrom.message} Using the embedded runtime (no Node.js or npm).` : undefined;
    return this.ready({ runtime, kind: 'embedded', notice }, fallbackFrom?.reason);
  }

  private ready(result: BootResult, reason?: BootFailureReason): BootResult {
    this.runtime = result.runtime;
    this.set({
      state: 'ready',
      kind: result.kind,
      notice: result.notice,
      reason,
      // Retrying makes sense after a timeout or an error, not when the page itself can never host WebContainer.
      canRetryWebContainer: reason === 'timed-out' || reason === 'error',
    });
    return result;
  }

  private async tryWebContainer(): Promise<
    { ok: true; runtime: Runtime } | { ok: false; reason: BootFailureReason; message: string }
  > {
    const isolated = this.options.isolated ?? globalThis.crossOriginIsolated === true;
    if (!isolated) {
      return {
        ok: false,
        reason: 'not-cross-origin-isolated',
        message:
          'WebContainer needs a cross-origin isolated page (Cross-Origin-Opener-Policy: same-origin and ' +
          'Cross-Origin-Embedder-Policy: require-corp headers), and this page is not.',
      };
    }
    const supported =
      this.options.supported ?? (typeof globalThis.SharedArrayBuffer === 'function' && typeof globalThis.WebAssembly === 'object');
    if (!supported) {
      return { ok: false, reason: 'unsupported-browser', message: 'This browser cannot run WebContainer.' };
    }
    this.set({ state: 'booting', kind: 'webcontainer', canRetryWebContainer: false });
    const timeoutMs = this.options.timeoutMs ?? DEFAULT_BOOT_TIMEOUT_MS;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<'timed-out'>((resolve) => {
      timer = setTimeout(() => resolve('timed-out'), timeoutMs);
    });
    try {
      const outcome = await Promise.race([this.options.bootWebContainer(), timedOut]);
      if (outcome === 'timed-out') {
        return {
          ok: false,
          reason: 'timed-out',
          message: `WebContainer did not start within ${timeoutMs / 1000} s (is stackblitz.com reachable?).`,
        };
      }
      return { ok: true, runtime: outcome };
    } catch (error) {
      const text = errorText(error);
      const unsupported = /not supported|unsupported/i.test(text);
      return {
        ok: false,
        reason: unsupported ? 'unsupported-browser' : 'error',
        message: `WebContainer could not start: ${text}.`,
      };
    } finally {
      clearTimeout(timer);
    }
  }

  private set(state: BootState): void {
    this.current = state;
    for (const listener of [...this.listeners]) listener(state);
  }
}

function errorText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\.$/, '');
}
