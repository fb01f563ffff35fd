// Which sandbox the page runs: WebContainer when it can boot, else the embedded runtime with a visible notice.
// Plain TypeScript (the UI renders `state`); WebContainer's boot() never settles when stackblitz.com is unreachable,
// so every boot attempt is raced with a timeout and never awaited past it. In 'auto' the embedded runtime starts
// alongside, so a person is never kept waiting for the timeout: whichever is ready first is used, and a WebContainer
// that finishes booting later is kept on standby for the person (or the app, while nothing has happened yet) to
// switch to.

import type { Runtime } from '../../runtime/types';
import { errorText } from '../../ai/messages';

export type RuntimeKind = 'webcontainer' | 'embedded';
export type RuntimePreference = 'auto' | 'webcontainer' | 'embedded';
export type BootFailureReason = 'not-cross-origin-isolated' | 'unsupported-browser' | 'timed-out' | 'error' | 'on-request';

export type BootState =
  | { state: 'booting'; kind: RuntimeKind; canRetryWebContainer: false }
  | {
      state: 'ready';
      kind: RuntimeKind;
      notice?: string;
      reason?: BootFailureReason;
      canRetryWebContainer: boolean;
      /** WebContainer is still booting in the background while the embedded runtime serves. */
      webContainerPending?: boolean;
      /** WebContainer booted after the embedded runtime was in use: retryWebContainer() switches to it at once. */
      webContainerStandby?: boolean;
    }
  | { state: 'failed'; kind: RuntimeKind; reason: BootFailureReason; message: string; canRetryWebContainer: boolean };

export type BootResult = { runtime: Runtime; kind: RuntimeKind; notice?: string };

type ReadyState = Extract<BootState, { state: 'ready' }>;
type AttemptFailure = { ok: false; reason: BootFailureReason; message: string };
type Attempt = { ok: true; runtime: Runtime } | AttemptFailure;

export type RuntimeBootOptions = {
  /** Boots (or returns the page's already booting) WebContainer as a Runtime; see runtime/webcontainer/boot.ts. */
  bootWebContainer: () => Promise<Runtime>;
  createEmbedded: () => Runtime | Promise<Runtime>;
  /** Default 20 s. */
  timeoutMs?: number;
  /** Defaults to `globalThis.crossOriginIsolated`. */
  isolated?: boolean;
  /** Defaults to a check for SharedArrayBuffer and WebAssembly. */
  supported?: boolean;
  /**
   * False where booting WebContainer unasked may crash the browser (iPhone, iPad: see webcontainer-device.ts):
   * 'auto' then serves with the embedded runtime and WebContainer starts only when the person asks. Default true.
   */
  autoBootWebContainer?: boolean;
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
  private standby: Runtime | undefined;

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
   * Starts the preferred runtime. 'auto' serves with whichever of WebContainer and embedded is ready first (see the
   * top of this file); a forced 'webcontainer' that cannot start ends in the failed state and throws
   * RuntimeBootError instead.
   */
  async boot(preference: RuntimePreference = 'auto'): Promise<BootResult> {
    if (preference === 'embedded') return this.startEmbedded(undefined);
    if (preference === 'auto') return this.bootEither();
    const attempt = await this.tryWebContainer();
    if (attempt.ok) return this.ready({ runtime: attempt.runtime, kind: 'webcontainer' });
    this.set({ state: 'failed', kind: 'webcontainer', reason: attempt.reason, message: attempt.message, canRetryWebContainer: true });
    throw new RuntimeBootError(attempt.reason, attempt.message);
  }

  /**
   * Tries WebContainer again (the page's pending boot is reused, never a second one). On success the workspace of
   * the runtime in use is carried over through a snapshot zip; on failure the current runtime stays and the state
   * says why.
   */
  async retryWebContainer(): Promise<BootResult | undefined> {
    const previous = this.runtime;
    const previousState = this.current;
    const standby = this.standby;
    this.standby = undefined;
    if (!standby && previous && previousState.state === 'ready') {
      // The runtime in use keeps serving while WebContainer tries again.
      this.set({ ...previousState, notice: 'Trying WebContainer again…', canRetryWebContainer: false });
    }
    const attempt = standby
      ? ({ ok: true, runtime: standby } as const)
      : await this.tryWebContainer({ announce: !(previous && previousState.state === 'ready') });
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

  /** 'auto': WebContainer and the embedded runtime start together; the first one ready serves. */
  private async bootEither(): Promise<BootResult> {
    const cannot = this.cannotHostWebContainer();
    if (cannot) return this.startEmbedded(cannot);
    if (this.options.autoBootWebContainer === false) {
      return this.startEmbedded({
        ok: false,
        reason: 'on-request',
        message: 'WebContainer starts only when you ask on iPhone and iPad, where booting it can crash the browser.',
      });
    }
    const attempt = this.tryWebContainer();
    const embedded = Promise.resolve()
      .then(() => this.options.createEmbedded())
      .then(
      (runtime) => ({ ok: true as const, runtime }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    const first = await Promise.race([
      attempt.then((outcome) => ({ from: 'webcontainer' as const, outcome })),
      embedded.then((outcome) => ({ from: 'embedded' as const, outcome })),
    ]);

    if (first.from === 'webcontainer' && first.outcome.ok) {
      void embedded.then((e) => (e.ok ? e.runtime.dispose() : undefined));
      return this.ready({ runtime: first.outcome.runtime, kind: 'webcontainer' });
    }
    const started = await embedded;
    if (!started.ok) {
      // The embedded runtime failed: WebContainer is the only hope left.
      const outcome = await attempt;
      if (outcome.ok) return this.ready({ runtime: outcome.runtime, kind: 'webcontainer' });
      return this.embeddedFailed(started.error, true);
    }
    if (first.from === 'webcontainer') return this.embeddedReady(started.runtime, first.outcome as AttemptFailure);

    const result = this.ready({
      runtime: started.runtime,
      kind: 'embedded',
      notice: 'WebContainer is still starting; the embedded runtime (node and npm, no servers) serves meanwhile.',
    });
    this.set({ ...(this.current as ReadyState), webContainerPending: true });
    void attempt.then((outcome) => this.settleBackgroundAttempt(started.runtime, outcome));
    return result;
  }

  private settleBackgroundAttempt(embedded: Runtime, outcome: Attempt): void {
    if (this.runtime !== embedded || this.current.state !== 'ready') {
      if (outcome.ok) void outcome.runtime.dispose();
      return;
    }
    if (!outcome.ok) {
      this.embeddedReady(embedded, outcome);
      return;
    }
    this.standby = outcome.runtime;
    this.set({
      state: 'ready',
      kind: 'embedded',
      notice: 'WebContainer is ready: switch to it to run real Node.js, servers and native modules (your files come along).',
      canRetryWebContainer: true,
      webContainerStandby: true,
    });
  }

  private embeddedReady(runtime: Runtime, fallbackFrom: AttemptFailure): BootResult {
    const notice = `${fallbackFrom.message} Using the embedded runtime (node and npm, no servers).`;
    return this.ready({ runtime, kind: 'embedded', notice }, fallbackFrom.reason);
  }

  private embeddedFailed(error: unknown, canRetryWebContainer: boolean): never {
    const message = `The embedded runtime could not start: ${errorClause(error)}. Reload the page to try again.`;
    this.set({ state: 'failed', kind: 'embedded', reason: 'error', message, canRetryWebContainer });
    throw new RuntimeBootError('error', message);
  }

  private async startEmbedded(fallbackFrom: AttemptFailure | undefined): Promise<BootResult> {
    this.set({ state: 'booting', kind: 'embedded', canRetryWebContainer: false });
    let runtime: Runtime;
    try {
      runtime = await this.options.createEmbedded();
    } catch (error) {
      return this.embeddedFailed(error, fallbackFrom !== undefined);
    }
    return fallbackFrom ? this.embeddedReady(runtime, fallbackFrom) : this.ready({ runtime, kind: 'embedded' });
  }

  private ready(result: BootResult, reason?: BootFailureReason): BootResult {
    this.runtime = result.runtime;
    this.set({
      state: 'ready',
      kind: result.kind,
      notice: result.notice,
      reason,
      // Retrying makes sense after a timeout or an error (a retry reuses the page's one boot while it is pending, and
      // is raced with the timeout, so it never hangs), or when WebContainer waits to be asked for; not when the page
      // itself can never host WebContainer.
      canRetryWebContainer: reason === 'timed-out' || reason === 'error' || reason === 'on-request',
    });
    return result;
  }

  /** Why this page can never host WebContainer, or undefined when it may try. */
  private cannotHostWebContainer(): AttemptFailure | undefined {
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
    return undefined;
  }

  /** One WebContainer boot attempt, raced with the timeout; never rejects. */
  private async tryWebContainer({ announce = true } = {}): Promise<Attempt> {
    const cannot = this.cannotHostWebContainer();
    if (cannot) return cannot;
    if (announce) this.set({ state: 'booting', kind: 'webcontainer', canRetryWebContainer: false });
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
      const text = errorClause(error);
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

/** The error's text without a final full stop, for a sentence that goes on after it. */
function errorClause(error: unknown): string {
  return errorText(error).replace(/\.$/, '');
}
