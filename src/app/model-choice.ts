// From settings to the Model a run uses, with a message for the person when the settings are not enough yet.
import { customModel, defaultModelFor } from '../ai/models';
import { endpointPreset } from '../ai/presets';
import type { Model } from '../ai/types';
import type { ProviderId, Settings } from './settings';
import { withModelLimits } from './compaction/long-session-settings';

export const PROVIDER_LABELS: Record<ProviderId, string> = {
  anthropic: 'Anthropic',
  openai: 'OpenAI',
  google: 'Google Gemini',
  'openai-compatible': 'OpenAI-compatible endpoint',
};

/** The catalog's default model id for a provider ('' when it has none, as for custom endpoints). */
export function defaultModelId(provider: ProviderId): string {
  return defaultModelFor(provider)?.id ?? '';
}

/** Whether requests to this provider need a key (local endpoints usually do not). */
export function needsApiKey(settings: Pick<Settings, 'provider' | 'preset'>): boolean {
  if (settings.provider !== 'openai-compatible') return true;
  return endpointPreset(settings.preset)?.needsKey ?? false;
}

/** The model to run with; throws an Error whose message tells the person what to set. */
export function resolveModel(settings: Settings): Model {
  const label = PROVIDER_LABELS[settings.provider];
  if (settings.provider === 'openai-compatible' && settings.baseUrl.trim() === '') {
    throw new Error('Set the base URL of your OpenAI-compatible endpoint in settings.');
  }
  if (settings.modelId.trim() === '') throw new Error(`Choose a model for ${label} in settings.`);
  if (needsApiKey(settings) && settings.apiKey.trim() === '') {
    throw new Error(`Add your ${label} API key in settings (it is stored only in this browser).`);
  }
  return withModelLimits(customModel(settings.provider, settings.modelId, settings.baseUrl.trim() || undefined), settings.modelLimits);
}

/** Short name of the model the settings point at, for the top bar. */
export function modelLabel(settings: Settings): string {
  if (settings.modelId.trim() === '') return 'No model chosen';
  return customModel(settings.provider, settings.modelId).name;
}
