// The provider's own list of models for the settings being edited: fetched once per provider, endpoint and key (a
// key change fetches again), the newest request winning; and the "Test connection" check. The settings dialog
// renders both; the fetch code loads with the dialog's first use, outside the initial bundle.
import type { ConnectionResult } from '../../ai/connection-test';
import { errorText } from '../../ai/messages';
import type { ListedModel } from '../../ai/model-list';
import { defaultPick, modelOptions, type ModelOption } from '../../ai/model-options';
import { needsApiKey, resolveModel } from './model-choice';
import type { Settings } from './settings';

type ListFor = Pick<Settings, 'provider' | 'preset' | 'baseUrl' | 'apiKey'>;

/** The live model list of the provider being edited. */
export class LiveModelList {
  state = $state<'idle' | 'loading' | 'ready' | 'failed'>('idle');
  listed = $state.raw<ListedModel[] | null>(null);
  error = $state('');
  private loadedFor = $state('');
  private controller: AbortController | null = null;

  /** Whether there is enough to ask the provider: a key where one is needed, a base URL where one is needed. */
  canLoad(settings: ListFor): boolean {
    if (settings.provider === 'openai-compatible' && !settings.baseUrl.trim()) return false;
    return !needsApiKey(settings) || settings.apiKey.trim() !== '';
  }

  /** Fetches the list for these settings unless it was already fetched for them; forgets it when it cannot load. */
  async load(settings: ListFor): Promise<void> {
    const signature = signatureOf(settings);
    if (signature === this.loadedFor) return;
    this.controller?.abort();
    this.loadedFor = signature;
    if (!this.canLoad(settings)) {
      this.controller = null;
      Object.assign(this, { state: 'idle', listed: null, error: '' });
      return;
    }
    const controller = new AbortController();
    this.controller = controller;
    this.state = 'loading';
    try {
      const { fetchModelList } = await import('../../ai/model-list');
      const listed = await fetchModelList({ ...settings, apiKey: settings.apiKey.trim(), signal: controller.signal });
      if (controller.signal.aborted) return;
      Object.assign(this, { state: 'ready', listed, error: '' });
    } catch (error) {
      if (controller.signal.aborted) return;
      // Another try with the same settings is allowed (the server may have been started meanwhile).
      this.loadedFor = '';
      Object.assign(this, { state: 'failed', listed: null, error: errorText(error) });
    }
  }

  /** The live list when it was fetched for exactly these settings (not for the provider edited a moment ago). */
  listFor(settings: ListFor): ListedModel[] | null {
    return this.state === 'ready' && this.loadedFor === signatureOf(settings) ? this.listed : null;
  }

  /** The models to offer: the live list merged with the catalog, or the catalog alone. */
  options(settings: ListFor): ModelOption[] {
    return modelOptions(settings.provider, this.listFor(settings));
  }

  /** The model to pick when the current one is not offered by the list and was not typed by the person. */
  pick(settings: ListFor): string {
    return defaultPick(settings.provider, this.options(settings));
  }
}

const signatureOf = (settings: ListFor) => JSON.stringify([settings.provider, settings.baseUrl.trim(), settings.apiKey.trim()]);

/** One tiny request with these settings: OK with the answer time, or why not; never throws. */
export async function checkConnection(settings: Settings): Promise<ConnectionResult> {
  let model;
  try {
    model = resolveModel(settings);
  } catch (error) {
    return { kind: 'other', message: errorText(error) };
  }
  const { testConnection } = await import('../../ai/connection-test');
  return testConnection(model, { apiKey: settings.apiKey.trim() });
}
