/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { bundleReport } from './build/bundle-report.js';
import { CROSS_ORIGIN_ISOLATION_HEADERS } from './src/runtime/cross-origin-isolation.js';
import { nodeGuestBundle } from './build/node-guest-bundle.js';
import { nodeSandboxBundle } from './build/node-sandbox-bundle.js';
import { serviceWorker } from './build/service-worker.js';

// WebContainers need SharedArrayBuffer, which needs a cross-origin isolated page (one COEP value, in that file).
const crossOriginIsolation = { ...CROSS_ORIGIN_ISOLATION_HEADERS };

export default defineConfig({
  // Relative base: the static build can be hosted under any path.
  base: './',
  plugins: [svelte(), bundleReport(), nodeGuestBundle(), nodeSandboxBundle(), serviceWorker()],
  server: { headers: crossOriginIsolation },
  preview: { headers: crossOriginIsolation },
  worker: { format: 'es', plugins: () => [nodeGuestBundle(), nodeSandboxBundle()] },
  // The dev server finds dependencies by crawling from index.html, which does not reach what only Web Workers import
  // (the embedded runtime, the session-file reader). Found on first use instead, they were optimized then and the
  // page reloaded ("optimized dependencies changed"). Naming them here bundles them before the first load.
  optimizeDeps: {
    include: [
      'just-bash', 'fflate', 'minimatch', 'ignore', 'diff', '@sinclair/typebox', '@sinclair/typebox/value', 'just-git', 'just-git/repo',
      'quickjs-emscripten-core', '@jitl/quickjs-wasmfile-release-sync', '@noble/hashes/legacy.js', '@noble/hashes/sha2.js', '@noble/hashes/utils.js', 'sucrase', 'sucrase/dist/parser',
      'semver/ranges/max-satisfying', 'semver/ranges/valid', 'semver/functions/satisfies', 'semver/functions/valid', 'modern-tar', 'hash-wasm', 'es-module-lexer',
    ],
  },
  build: { target: 'es2022', chunkSizeWarningLimit: 4096 },
  test: {
    include: ['src/**/*.test.ts', 'e2e/mock-provider/**/*.test.ts', 'e2e/mock-github/**/*.test.ts', 'e2e/mock-gitlab/**/*.test.ts', 'e2e/mock-mcp/**/*.test.ts', 'bench/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20000,
    pool: 'forks',
    // Both cores: the unit suite is CPU-bound (vitest would use one worker on this 2-core machine).
    maxWorkers: 2,
  },
});
