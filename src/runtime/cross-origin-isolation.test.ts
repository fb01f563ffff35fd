import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COEP, CROSS_ORIGIN_ISOLATION_HEADERS, netlifyHeadersFile, vercelConfigFile } from './cross-origin-isolation';

const repoFile = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

describe('cross-origin isolation headers', () => {
  it('come from one COEP value', () => {
    expect(CROSS_ORIGIN_ISOLATION_HEADERS).toEqual({ 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': COEP });
  });

  it('are what the static hosts get (public/_headers and vercel.json are written from them: npm run sync:headers)', () => {
    expect(repoFile('public/_headers'), 'public/_headers is stale: run npm run sync:headers').toBe(netlifyHeadersFile());
    expect(repoFile('vercel.json'), 'vercel.json is stale: run npm run sync:headers').toBe(vercelConfigFile());
    expect(repoFile('public/_headers')).toContain(`Cross-Origin-Embedder-Policy: ${COEP}`);
  });
});
