// just-bash checks `signal.aborted` at every statement boundary but a tight loop (`while true; do :; done`) never
// yields to the event loop, so a timer-driven abort would never fire. This signal's `aborted` getter looks at the
// clock (and at an optional cross-thread flag) itself each time just-bash asks, so timeouts stop such loops too.

export type StopReason = 'timeout' | 'abort';

export type ExecSignal = {
  readonly signal: AbortSignal;
  /** Why the command was stopped, once it was. */
  readonly stopReason: () => StopReason | undefined;
  readonly dispose: () => void;
};

export type ExecSignalOptions = {
  external?: AbortSignal;
  timeoutMs?: number;
  /** Polled synchronously: true once someone on another thread asked to stop (SharedArrayBuffer flag). */
  interruptRequested?: () => boolean;
};

/** An AbortSignal that trips on the external signal, on a deadline, or on a polled interrupt flag. */
export function createExecSignal(options: ExecSignalOptions): ExecSignal {
  const controller = new AbortController();
  const signal = controller.signal;
  let reason: StopReason | undefined;
  const deadline =
    options.timeoutMs !== undefined && Number.isFinite(options.timeoutMs) ? Date.now() + options.timeoutMs : undefined;

  const stop = (why: StopReason): void => {
    if (reason !== undefined) return;
    reason = why;
    controller.abort(new DOMException(why === 'timeout' ? 'The command timed out' : 'The command was aborted', 'AbortError'));
  };

  const onExternalAbort = (): void => stop('abort');
  if (options.external?.aborted) stop('abort');
  else options.external?.addEventListener('abort', onExternalAbort, { once: true });
  const timer = deadline !== undefined ? setTimeout(() => stop('timeout'), Math.max(0, deadline - Date.now())) : undefined;

  const nativeAborted = Object.getOwnPropertyDescriptor(AbortSignal.prototype, 'aborted')?.get;
  Object.defineProperty(signal, 'aborted', {
    configurable: true,
    get(): boolean {
      if (reason === undefined) {
        if (options.interruptRequested?.()) stop('abort');
        else if (deadline !== undefined && Date.now() >= deadline) stop('timeout');
      }
      return nativeAborted ? nativeAborted.call(signal) : reason !== undefined;
    },
  });

  return {
    signal,
    stopReason: () => reason,
    dispose: () => {
      if (timer !== undefined) clearTimeout(timer);
      options.external?.removeEventListener('abort', onExternalAbort);
    },
  };
}
