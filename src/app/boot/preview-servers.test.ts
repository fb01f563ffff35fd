import { describe, expect, it } from 'vitest';
import { noticeFromPreviewMessage, PreviewServers, type PreviewEventSource } from './preview-servers.svelte';

type Listener = (...args: never[]) => void;

/** Emits events the way `WebContainer.on` does, and counts listeners so unsubscribing can be checked. */
function fakeContainer() {
  const listeners = new Map<string, Set<Listener>>();
  const source = {
    on(event: string, listener: Listener) {
      const set = listeners.get(event) ?? new Set<Listener>();
      set.add(listener);
      listeners.set(event, set);
      return () => set.delete(listener);
    },
  } as PreviewEventSource;
  const emit = (event: string, ...args: unknown[]) => {
    for (const listener of listeners.get(event) ?? []) (listener as (...a: unknown[]) => void)(...args);
  };
  const listenerCount = () => [...listeners.values()].reduce((sum, set) => sum + set.size, 0);
  return { source, emit, listenerCount };
}

const exception = (message: string, extra: Record<string, unknown> = {}) => ({
  type: 'PREVIEW_UNCAUGHT_EXCEPTION',
  message,
  stack: `Error: ${message}\n    at render (main.js:3:9)`,
  previewId: 'p1',
  port: 5173,
  pathname: '/',
  search: '',
  hash: '',
  ...extra,
});

describe('PreviewServers', () => {
  it('lists servers from server-ready and port events, sorted by port, and drops closed ones', () => {
    const { source, emit } = fakeContainer();
    const previews = new PreviewServers();
    previews.attach(source);
    emit('server-ready', 5173, 'https://a--5173.local-credentialless.webcontainer-api.io');
    emit('port', 3000, 'open', 'https://a--3000.local-credentialless.webcontainer-api.io');
    emit('server-ready', 3000, 'https://a--3000.local-credentialless.webcontainer-api.io');
    expect(previews.servers.map((server) => server.port)).toEqual([3000, 5173]);
    emit('port', 5173, 'close', '');
    expect(previews.servers).toEqual([{ port: 3000, url: 'https://a--3000.local-credentialless.webcontainer-api.io' }]);
  });

  it('turns forwarded preview errors into notices, once per distinct error', () => {
    const { source, emit } = fakeContainer();
    const previews = new PreviewServers();
    previews.attach(source);
    emit('preview-message', exception('x is not defined'));
    emit('preview-message', exception('x is not defined'));
    emit('preview-message', { type: 'PREVIEW_CONSOLE_ERROR', args: ['Failed to load', { status: 404 }], stack: '' });
    emit('preview-message', { type: 'SOMETHING_ELSE' });
    expect(previews.notices).toEqual([
      'Uncaught error in the preview (:5173/): x is not defined\n    at render (main.js:3:9)',
      'console.error in the preview: Failed to load {"status":404}',
    ]);
    previews.dismissNotice(0);
    expect(previews.notices).toEqual(['console.error in the preview: Failed to load {"status":404}']);
  });

  it('keeps only the most recent notices', () => {
    const { source, emit } = fakeContainer();
    const previews = new PreviewServers();
    previews.attach(source);
    for (let i = 0; i < 50; i++) emit('preview-message', exception(`error ${i}`));
    expect(previews.notices).toHaveLength(20);
    expect(previews.notices.at(-1)).toContain('error 49');
  });

  it('stops listening when detached', () => {
    const { source, emit, listenerCount } = fakeContainer();
    const previews = new PreviewServers();
    const detach = previews.attach(source);
    detach();
    expect(listenerCount()).toBe(0);
    emit('server-ready', 5173, 'https://x');
    expect(previews.servers).toEqual([]);
  });
});

describe('noticeFromPreviewMessage', () => {
  it('describes unhandled rejections with where they happened', () => {
    const notice = noticeFromPreviewMessage({
      type: 'PREVIEW_UNHANDLED_REJECTION',
      message: 'fetch failed',
      stack: undefined,
      port: 3000,
      pathname: '/todos',
      search: '?page=2',
      hash: '',
    });
    expect(notice).toBe('Unhandled promise rejection in the preview (:3000/todos?page=2): fetch failed');
  });

  it('ignores values that are not preview messages', () => {
    expect(noticeFromPreviewMessage(null)).toBeNull();
    expect(noticeFromPreviewMessage('PREVIEW_UNCAUGHT_EXCEPTION')).toBeNull();
  });
});
