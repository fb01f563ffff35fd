import { describe, expect, it } from 'vitest';
import { modelLabel, resolveModel, switchPreset, switchProvider, withReportedLimits } from './model-choice';
import { defaultSettings, parseSettings, type Settings } from './settings';

const fresh = (over: Partial<Settings> = {}): Settings => ({ ...defaultSettings(), ...over });

describe('provider switching', () => {
  it('brings each provider its own default model and endpoint, and brings back what the person typed', () => {
    let s = fresh({ apiKey: 'sk-ant', baseUrl: 'http://127.0.0.1:4010', modelId: 'claude-opus-5-5' });
    s = switchProvider(s, 'openai');
    expect(s).toMatchObject({ provider: 'openai', modelId: 'gpt-5.6-terra', baseUrl: '', apiKey: '' });
    s = switchProvider(s, 'openai-compatible');
    expect(s).toMatchObject({ provider: 'openai-compatible', modelId: '', baseUrl: '', preset: '' });
    s = switchPreset(s, 'ollama');
    expect(s).toMatchObject({ baseUrl: 'http://localhost:11434/v1', modelId: '' });
    s = { ...s, modelId: 'qwen3-coder:30b' };
    s = switchPreset(s, 'openrouter');
    expect(s).toMatchObject({ baseUrl: 'https://openrouter.ai/api/v1', modelId: 'openrouter/auto' });
    s = { ...s, apiKey: 'sk-or' };
    s = switchPreset(s, 'ollama');
    expect(s.modelId).toBe('qwen3-coder:30b');
    // The OpenRouter key stays with OpenRouter.
    expect(s.apiKey).toBe('');
    s = switchPreset(s, 'openrouter');
    expect(s.apiKey).toBe('sk-or');
    s = switchPreset(s, 'ollama');
    s = switchProvider(s, 'google');
    expect(s).toMatchObject({ modelId: 'gemini-3.5-flash', baseUrl: '', preset: '' });
    s = switchProvider(s, 'anthropic');
    expect(s).toMatchObject({ modelId: 'claude-opus-5-5', baseUrl: 'http://127.0.0.1:4010', apiKey: 'sk-ant' });
    s = switchProvider(s, 'openai-compatible');
    expect(s).toMatchObject({ preset: 'ollama', modelId: 'qwen3-coder:30b', baseUrl: 'http://localhost:11434/v1' });
    // Survives a save and a reload.
    expect(parseSettings(JSON.parse(JSON.stringify(s))).remembered).toEqual(s.remembered);
  });
});

describe('the model a run uses', () => {
  it('says "Choose a model" until a provider is set up, then the model name', () => {
    expect(modelLabel(fresh())).toBe('Choose a model');
    expect(modelLabel(fresh({ apiKey: 'k' }))).toBe('Claude Sonnet 5.5');
    expect(modelLabel(fresh({ provider: 'openai-compatible', preset: 'ollama', baseUrl: 'http://localhost:11434/v1', modelId: 'qwen3' }))).toBe('qwen3');
  });

  it('names the provider as settings show it when something is missing', () => {
    expect(() => resolveModel(fresh({ provider: 'google', modelId: 'gemini-2.5-flash' }))).toThrow('Add your Google Gemini API key in settings');
    expect(() => resolveModel(fresh({ provider: 'openai', modelId: ' ' }))).toThrow('Choose a model for OpenAI in settings.');
  });

  it('uses the limits the provider reported for the chosen model', () => {
    const listed = [{ id: 'claude-lab-7', contextWindow: 640_000, maxTokens: 96_000 }];
    const s = withReportedLimits(fresh({ apiKey: 'k', modelId: 'claude-lab-7' }), listed);
    expect(resolveModel(s)).toMatchObject({ id: 'claude-lab-7', contextWindow: 640_000, maxTokens: 96_000 });
    expect(resolveModel({ ...s, modelId: 'claude-sonnet-5-5' })).toMatchObject({ contextWindow: 1_000_000, maxTokens: 128_000 });
  });

  it('moves settings saved with the old default (now retired) to the catalog default, and keeps a deliberate choice', () => {
    expect(defaultSettings().modelId).toBe('claude-sonnet-5-5');
    expect(parseSettings({ provider: 'anthropic', modelId: 'claude-sonnet-4-5', apiKey: 'k' }).modelId).toBe('claude-sonnet-5-5');
    expect(parseSettings({ provider: 'anthropic', modelId: 'claude-sonnet-4-5', remembered: {} }).modelId).toBe('claude-sonnet-4-5');
    expect(parseSettings({ provider: 'anthropic', modelId: 'claude-opus-4-5' }).modelId).toBe('claude-opus-4-5');
  });
});
