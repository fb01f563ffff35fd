import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { anthropicDeprecations, deprecationOf, isRetired } from './model-deprecations';
import { defaultModelFor, MODELS } from './models';
import { PROVIDER_IDS } from './provider-id';

/** The Anthropic SDK's own deprecation table, read from the installed package (it is not exported). */
async function sdkTable(): Promise<Record<string, string>> {
  // The package exports neither its package.json nor internal/: find its folder from the main entry.
  const entry = createRequire(import.meta.url).resolve('@anthropic-ai/sdk');
  const file = join(dirname(entry), 'internal', 'data', 'deprecated-models.mjs');
  const module = (await import(pathToFileURL(file).href)) as { DEPRECATED_MODELS: Record<string, string> };
  return module.DEPRECATED_MODELS;
}

/** "November 30th, 2026" -> "2026-11-30". */
function isoDay(text: string): string {
  const date = new Date(`${text.replace(/(\d+)(st|nd|rd|th)/, '$1')} 12:00 UTC`);
  expect(Number.isNaN(date.getTime()), `unreadable date "${text}"`).toBe(false);
  return date.toISOString().slice(0, 10);
}

describe('model deprecations', () => {
  it('lists every model the installed Anthropic SDK deprecates, with the same end-of-life day', async () => {
    const sdk = await sdkTable();
    expect(Object.keys(sdk).length).toBeGreaterThan(0);
    const ours = anthropicDeprecations();
    for (const [id, day] of Object.entries(sdk)) {
      expect(ours[id], `${id} is deprecated in the SDK (end of life ${day}) but not in model-deprecations.ts`).toBeDefined();
      expect(ours[id].endOfLife, id).toBe(isoDay(day));
    }
    expect(Object.keys(ours).sort()).toEqual(Object.keys(sdk).sort());
  });

  it('never names a deprecated model as a provider default', () => {
    for (const provider of PROVIDER_IDS) {
      const model = defaultModelFor(provider);
      if (model) expect(deprecationOf(provider, model.id), `${provider} default ${model.id}`).toBeUndefined();
    }
    expect(defaultModelFor('anthropic')?.id).not.toBe('claude-sonnet-4-5');
  });

  it('tells a retired model from one still answering', () => {
    const sonnet45 = deprecationOf('anthropic', 'claude-sonnet-4-5')!;
    expect(isRetired(sonnet45, new Date('2026-12-01T10:00:00Z'))).toBe(true);
    expect(isRetired(sonnet45, new Date('2026-11-30T10:00:00Z'))).toBe(false);
    expect(deprecationOf('anthropic', 'claude-sonnet-5-5')).toBeUndefined();
    expect(MODELS.filter((m) => deprecationOf(m.provider, m.id)).map((m) => m.id)).toContain('claude-sonnet-4-5');
  });
});
