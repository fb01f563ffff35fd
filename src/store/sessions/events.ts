// Tells other tabs that the session list changed (created, renamed, deleted), over a BroadcastChannel.
import type { SessionChange } from '../types';

export interface SessionEvents {
  publish(change: SessionChange): void;
  /** Calls `listener` for changes made in OTHER tabs; returns the unsubscribe function. */
  subscribe(listener: (change: SessionChange) => void): () => void;
  close(): void;
}

export const SESSION_CHANNEL = 'conch-sessions';

/** Opens the channel; where BroadcastChannel is missing, publishing does nothing and nothing arrives. */
export function openSessionEvents(channelName = SESSION_CHANNEL): SessionEvents {
  const listeners = new Set<(change: SessionChange) => void>();
  const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(channelName) : null;
  if (channel) {
    channel.onmessage = (event: MessageEvent<unknown>) => {
      const change = parseChange(event.data);
      if (change) for (const listener of listeners) listener(change);
    };
  }
  return {
    publish(change) {
      channel?.postMessage(change);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      listeners.clear();
      channel?.close();
    },
  };
}

// Anything on the channel is untrusted input (another version of Conch, another app on the origin).
function parseChange(data: unknown): SessionChange | null {
  if (typeof data !== 'object' || data === null) return null;
  const { type, id } = data as { type?: unknown; id?: unknown };
  if (typeof id !== 'string') return null;
  if (type === 'created' || type === 'updated' || type === 'deleted') return { type, id };
  return null;
}
