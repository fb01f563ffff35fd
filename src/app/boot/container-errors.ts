// WebContainer's `error` event is the only sign that something broke it at runtime; StackBlitz's docs name third-party
// cookie and privacy blockers as the usual cause, which otherwise break WebContainers silently.

/** The subset of `WebContainer.on` this file listens to. */
export interface ContainerErrorSource {
  on(event: 'error', listener: (error: { message: string }) => void): () => void;
}

/** The notice shown for a WebContainer `error` event. */
export function containerErrorNotice(error: unknown): string {
  const message =
    typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string'
      ? (error as { message: string }).message.trim()
      : String(error);
  return (
    `WebContainer reported an error: ${message || 'no details given'}. Privacy blockers and blocked third-party ` +
    'cookies can break WebContainers: allow them for this site and reload, or switch to the embedded runtime in the settings.'
  );
}

/** Calls `onNotice` with a notice for every `error` the container emits; returns the unsubscribe function. */
export function watchContainerErrors(container: ContainerErrorSource, onNotice: (notice: string) => void): () => void {
  return container.on('error', (error) => onNotice(containerErrorNotice(error)));
}
