// From settings to the Model a run uses, with a message for the person when the settings are not enough yet; and
// what happens to base URL, model and key when the person switches provider or preset.
import { deprecationOf } from '../../ai/model-deprecations';
import type { ListedModel } from '../../ai/model-list';
import { customModel } from '../../ai/models';
import { endpointPreset } from '../../ai/presets';
import { PROVIDER_LABELS } from '../../ai/provider-id';
import type { Model } from '../../ai/types';
import { defaultModelId, type ProviderChoice, type ProviderId, type Settings } from './settings';
import { withLimits } from '../compaction/long-session-settings';

export { defaultModelId };

/** Whether requests to this provider need a key (local endpoints usually do not). */
export function needsApiKey(settings: Pick<Settings, 'provider' | 'preset'>): boolean {
  if (settings.provider !== 'openai-compatible') return true;
  return endpointPreset(settings.preset)?.needsKey ?? false;
}

/** The model to run with; throws an Error whose message tells the person what to set. */
export function resolveModel(settings: Settings): Model {
  const label = PROVIDER_LABELS[settings.provider].long;
  if (settings.provider === 'openai-compatible' && settings.baseUrl.trim() === '') {
    throw new Error('Set the base URL of your OpenAI-compatible endpoint in settings.');
  }
  if (settings.modelId.trim() === '') throw new Error(`Choose a model for ${label} in settings.`);
  if (needsApiKey(settings) && settings.apiKey.trim() === '') {
    throw new Error(`Add your ${label} API key in settings (it is stored only in this browser).`);
  }
  return withLimits(customModel(settings.provider, settings.modelId, settings.baseUrl.trim() || undefined), settings.reportedLimits, settings.modelLimits);
}

/** Whether the settings can start a run (a provider set up with whatever it needs). */
export function isReady(settings: Settings): boolean {
  try {
    resolveModel(settings);
    return true;
  } catch {
    return false;
  }
}

/** Short name of the model the settings point at, for the top bar; "Choose a model" until a provider is set up. */
export function modelLabel(settings: Settings): string {
  if (!isReady(settings)) return 'Choose a model';
  return customModel(settings.provider, settings.modelId).name;
}

/** The end of life of the chosen model when its provider has deprecated it. */
export function chosenModelDeprecation(settings: Pick<Settings, 'provider' | 'modelId'>): string | undefined {
  return deprecationOf(settings.provider, settings.modelId)?.endOfLife;
}

/** Where a provider's (or a preset's) own base URL, model and key are remembered. */
export function choiceKey(provider: ProviderId, preset: string): string {
  return provider === 'openai-compatible' && preset ? `${provider}/${preset}` : provider;
}

/** What a provider (or preset) starts with before the person typed anything for it. */
function defaultChoice(provider: ProviderId, preset: string): ProviderChoice {
  const endpoint = provider === 'openai-compatible' ? endpointPreset(preset) : undefined;
  return {
    baseUrl: endpoint?.baseUrl ?? '',
    modelId: provider === 'openai-compatible' ? (endpoint?.defaultModel ?? '') : defaultModelId(provider),
    apiKey: '',
    preset,
  };
}

/** `settings` with the current provider's base URL, model and key remembered (under the provider and the preset). */
function remember(settings: Settings): Record<string, ProviderChoice> {
  const current: ProviderChoice = { baseUrl: settings.baseUrl, modelId: settings.modelId, apiKey: settings.apiKey, preset: settings.preset };
  return { ...settings.remembered, [settings.provider]: current, [choiceKey(settings.provider, settings.preset)]: current };
}

function apply(settings: Settings, remembered: Record<string, ProviderChoice>, provider: ProviderId, choice: ProviderChoice): Settings {
  const preset = provider === 'openai-compatible' ? (choice.preset ?? '') : '';
  return { ...settings, provider, preset, remembered, baseUrl: choice.baseUrl, modelId: choice.modelId, apiKey: choice.apiKey, reportedLimits: null };
}

/** Switches provider: it brings its own default model and base URL, or what the person last had there. */
export function switchProvider(settings: Settings, provider: ProviderId): Settings {
  if (provider === settings.provider) return settings;
  const remembered = remember(settings);
  return apply(settings, remembered, provider, remembered[provider] ?? defaultChoice(provider, ''));
}

/** Switches the OpenAI-compatible preset: its base URL and default model, or what the person last had there. */
export function switchPreset(settings: Settings, preset: string): Settings {
  if (settings.provider !== 'openai-compatible' || preset === settings.preset) return settings;
  const remembered = remember(settings);
  const choice = remembered[choiceKey('openai-compatible', preset)] ?? defaultChoice('openai-compatible', preset);
  // A key typed before any preset was picked is usually that preset's own; a key of another preset never moves over
  // (it would be sent to that other endpoint).
  const carried = settings.preset === '' ? settings.apiKey : '';
  return apply(settings, remembered, 'openai-compatible', { ...choice, preset, apiKey: choice.apiKey || carried });
}

/** The settings to save: the reported limits of the chosen model kept when the provider's list had them. */
export function withReportedLimits(settings: Settings, listed: readonly ListedModel[] | null): Settings {
  const item = listed?.find((m) => m.id === settings.modelId.trim());
  if (!item?.contextWindow || !item.maxTokens) {
    return settings.reportedLimits?.modelId === settings.modelId.trim() ? settings : { ...settings, reportedLimits: null };
  }
  return { ...settings, reportedLimits: { modelId: item.id, contextWindow: item.contextWindow, maxTokens: item.maxTokens } };
}
