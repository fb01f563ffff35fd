// Endpoints that speak the OpenAI Chat Completions format. A person picks one (or types a base URL) with the
// `openai-compatible` provider; the base URL ends up in Model.baseUrl.

export type EndpointPreset = {
  id: 'openrouter' | 'groq' | 'deepseek' | 'ollama' | 'lmstudio' | 'custom';
  label: string;
  /** Empty for `custom`: the person types it. */
  baseUrl: string;
  needsKey: boolean;
  /** Runs on the person's own machine; the browser can only call it if it allows this page (CORS). */
  local: boolean;
  /** A model id every account there can use; '' when it depends on what the person installed or chose. */
  defaultModel: string;
};

export const ENDPOINT_PRESETS: readonly EndpointPreset[] = [
  { id: 'openrouter', label: 'OpenRouter', baseUrl: 'https://openrouter.ai/api/v1', needsKey: true, local: false, defaultModel: 'openrouter/auto' },
  { id: 'groq', label: 'Groq', baseUrl: 'https://api.groq.com/openai/v1', needsKey: true, local: false, defaultModel: 'llama-3.3-70b-versatile' },
  { id: 'deepseek', label: 'DeepSeek', baseUrl: 'https://api.deepseek.com/v1', needsKey: true, local: false, defaultModel: 'deepseek-chat' },
  { id: 'ollama', label: 'Ollama (this computer)', baseUrl: 'http://localhost:11434/v1', needsKey: false, local: true, defaultModel: '' },
  { id: 'lmstudio', label: 'LM Studio (this computer)', baseUrl: 'http://localhost:1234/v1', needsKey: false, local: true, defaultModel: '' },
  { id: 'custom', label: 'Custom base URL', baseUrl: '', needsKey: false, local: false, defaultModel: '' },
];

/** The preset with this id, if any. */
export function endpointPreset(id: string): EndpointPreset | undefined {
  return ENDPOINT_PRESETS.find((preset) => preset.id === id);
}

/** The preset whose base URL matches `baseUrl` (ignoring a trailing slash), for showing a friendly name. */
export function presetForBaseUrl(baseUrl: string | undefined): EndpointPreset | undefined {
  if (!baseUrl) return undefined;
  const normalized = baseUrl.replace(/\/+$/, '');
  return ENDPOINT_PRESETS.find((preset) => preset.baseUrl !== '' && preset.baseUrl === normalized);
}
