import { describe, expect, it } from 'vitest';
import { costOf } from './cost';
import { MODELS, customModel, defaultModelFor, findModel, modelsFor } from './models';
import { ENDPOINT_PRESETS, presetForBaseUrl } from './presets';
import { wireApiOf } from './stream';

describe('model catalog', () => {
  it('has flagship and small models with prices for each provider', () => {
    for (const provider of ['anthropic', 'openai', 'google']) {
      expect(modelsFor(provider).length).toBeGreaterThanOrEqual(3);
      expect(defaultModelFor(provider)?.provider).toBe(provider);
    }
    for (const model of MODELS) {
      // A price the provider does not publish plainly is left unknown, never 0.
      if (model.cost) {
        expect(model.cost.input).toBeGreaterThan(0);
        expect(model.cost.output).toBeGreaterThan(model.cost.input);
      }
      expect(model.maxTokens).toBeLessThan(model.contextWindow);
    }
    for (const provider of ['anthropic', 'openai', 'google']) expect(defaultModelFor(provider)?.cost).toBeDefined();
  });

  it('computes cost from usage including the cache', () => {
    const sonnet = findModel('anthropic', 'claude-sonnet-4-6')!;
    const usage = { input: 1_000_000, output: 100_000, cacheRead: 2_000_000, cacheWrite: 10_000 };
    expect(costOf(sonnet, usage)).toBeCloseTo(3 + 1.5 + 0.6 + 0.0375, 10);
    expect(costOf(customModel('openai-compatible', 'qwen3-coder:30b'), usage)).toBeUndefined();
  });

  it('accepts any typed model id with sensible defaults', () => {
    const known = customModel('openai', ' gpt-5-mini ');
    expect(known.name).toBe('GPT-5 mini');
    const local = customModel('openai-compatible', 'qwen3-coder:30b', 'http://localhost:11434/v1');
    expect(local).toMatchObject({ id: 'qwen3-coder:30b', baseUrl: 'http://localhost:11434/v1', input: ['text'], reasoning: false });
    // Unknown price: no cost at all (the UI shows "—"), rather than a price of 0.
    expect(local.cost).toBeUndefined();
    expect(customModel('anthropic', 'claude-opus-4-8').reasoning).toBe(true);
    expect(customModel('anthropic', 'claude-3-5-haiku-latest').reasoning).toBe(false);
  });

  it('maps providers to wire APIs and base URLs to presets', () => {
    expect(wireApiOf(customModel('openai', 'gpt-5'))).toBe('openai-responses');
    expect(wireApiOf(customModel('openai-compatible', 'x', 'http://h/v1'))).toBe('openai-completions');
    expect(wireApiOf(customModel('mystery', 'x'))).toBeUndefined();
    expect(presetForBaseUrl('http://localhost:1234/v1/')?.id).toBe('lmstudio');
    expect(ENDPOINT_PRESETS.filter((p) => p.local).map((p) => p.baseUrl)).toEqual(['http://localhost:11434/v1', 'http://localhost:1234/v1']);
  });
});
