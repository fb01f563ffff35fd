import { describe, expect, it } from 'vitest';
import { resolveModel } from '../settings/model-choice';
import { defaultSettings, parseSettings } from '../settings/settings';
import { parseCompactCommand } from './compact-command';
import { compactionSettingsOf, contextWindowOf, knownLimits, modelLimitsKey } from './long-session-settings';

describe('model limits in settings', () => {
  it('fill from the catalog for known models and assume 128k for unknown ones', () => {
    expect(knownLimits('anthropic', 'claude-sonnet-4-6')).toEqual({ contextWindow: 200_000, maxOutput: 64_000, fromCatalog: true });
    expect(knownLimits('openai-compatible', 'qwen2.5-coder:7b')).toMatchObject({ contextWindow: 128_000, fromCatalog: false });
  });

  it('apply to the model a run uses and to the meter, for that provider and model only', () => {
    const settings = {
      ...defaultSettings(),
      provider: 'openai-compatible' as const,
      baseUrl: 'http://localhost:11434/v1',
      modelId: 'qwen2.5-coder:7b',
      modelLimits: { [modelLimitsKey('openai-compatible', 'qwen2.5-coder:7b')]: { contextWindow: 16_384, maxOutput: 2_048 } },
    };
    expect(resolveModel(settings)).toMatchObject({ contextWindow: 16_384, maxTokens: 2_048 });
    expect(contextWindowOf(settings)).toBe(16_384);
    expect(contextWindowOf({ ...settings, modelId: 'another-model' })).toBe(128_000);
    expect(contextWindowOf({ ...settings, provider: 'openai', modelId: 'qwen2.5-coder:7b' })).toBe(128_000);
  });

  it('survive storage, and nonsense stored there is dropped rather than used', () => {
    const stored = JSON.parse(
      JSON.stringify({
        ...defaultSettings(),
        modelLimits: { 'a/ok': { contextWindow: 32_000.7, maxOutput: 4_000 }, 'a/tiny': { contextWindow: 10 }, 'a/text': { maxOutput: '9' }, 'a/null': null },
        compaction: { auto: false, reserveTokens: 8_000, keepRecentTokens: -5 },
      }),
    );
    const settings = parseSettings(stored);
    expect(settings.modelLimits).toEqual({ 'a/ok': { contextWindow: 32_000, maxOutput: 4_000 } });
    expect(settings.compaction).toEqual({ auto: false, reserveTokens: 8_000, keepRecentTokens: 0 });
    expect(parseSettings({}).compaction).toEqual({ auto: true, reserveTokens: 0, keepRecentTokens: 0 });
    expect(compactionSettingsOf(settings.compaction)).toEqual({ auto: false, reserveTokens: 8_000, keepRecentTokens: undefined });
  });
});

describe('/compact', () => {
  it('is a command only as the whole message, with an optional focus', () => {
    expect(parseCompactCommand('/compact')).toEqual({});
    expect(parseCompactCommand('  /compact   keep the API design\n and tests ')).toEqual({ focus: 'keep the API design\n and tests' });
    expect(parseCompactCommand('/compacted')).toBeNull();
    expect(parseCompactCommand('please /compact')).toBeNull();
  });
});
