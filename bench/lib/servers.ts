// Vite servers for the browser benches, on free ports of 127.0.0.1, with the app's cross-origin isolation headers
// (they come from vite.config.ts, which both servers load).
import { join } from 'node:path';
import { createServer, preview, type PreviewServer, type ViteDevServer } from 'vite';
import { REPO_ROOT } from './paths';

export type RunningServer = { url: string; close(): Promise<void> };

/** Serves a production build (as `vite preview` does). */
export async function startPreviewServer(outDir: string): Promise<RunningServer> {
  const server: PreviewServer = await preview({
    root: REPO_ROOT,
    configFile: join(REPO_ROOT, 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir },
    preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false },
  });
  return { url: urlOf(server.resolvedUrls?.local), close: () => server.close() };
}

/** The Vite dev server, so a page can import source modules such as /src/store/index.ts directly. */
export async function startDevServer(): Promise<RunningServer> {
  const server: ViteDevServer = await createServer({
    root: REPO_ROOT,
    configFile: join(REPO_ROOT, 'vite.config.ts'),
    logLevel: 'warn',
    server: { host: '127.0.0.1', port: 0, strictPort: false, open: false, hmr: false, watch: null },
  });
  await server.listen();
  return { url: urlOf(server.resolvedUrls?.local), close: () => server.close() };
}

function urlOf(local: string[] | undefined): string {
  const url = local?.[0];
  if (!url) throw new Error('The Vite server started but reported no local URL.');
  return url.replace(/\/$/, '');
}
