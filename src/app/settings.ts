// The person's settings: what they chose, with defaults for a first visit. Persisted in the `settings` store;
// the API key lives only there and in provider requests.
import { PROVIDER_IDS, type ProviderId } from '../ai/provider-ids';
import { CODING_TOOL_NAMES, DEFAULT_ACTIVE_TOOLS, isCodingToolName, type CodingToolName } from '../tools/catalog';
import {
  defaultCompactionPreferences,
  parseCompactionPreferences,
  parseModelLimits,
  type CompactionPreferences,
  type ModelLimitsMap,
} from './compaction/long-session-settings';

export { PROVIDER_IDS, isCodingToolName };
export type { CodingToolName, ProviderId };

export type ThinkingLevel = 'off' | 'low' | 'medium' | 'high';
export type ApprovalMode = 'auto' | 'ask' | 'read-only';
export type RuntimePreference = 'auto' | 'webcontainer' | 'embedded';
export type Theme = 'system' | 'light' | 'dark';

/** The tools a person can switch on, in the catalog's order. */
export const ALL_TOOLS = CODING_TOOL_NAMES;

export type Settings = {
  provider: ProviderId;
  /** Preset id for openai-compatible endpoints (e.g. a local server); '' when typed by hand. */
  preset: string;
  apiKey: string;
  /** Empty means the provider's own endpoint. */
  baseUrl: string;
  modelId: string;
  thinking: ThinkingLevel;
  /** 0 means the model's own maximum. */
  maxTokens: number;
  approvalMode: ApprovalMode;
  protectedPaths: string[];
  activeTools: CodingToolName[];
  runtimePreference: RuntimePreference;
  theme: Theme;
  customInstructions: string;
  /** Set once the person has finished the first-visit welcome. */
  onboarded: boolean;
  /** Context window and output limit per model, where the person set them (long-session-settings.ts). */
  modelLimits: ModelLimitsMap;
  /** When the context is compacted (long-session-settings.ts). */
  compaction: CompactionPreferences;
};

/** A fresh copy of the defaults for a first visit. */
export function defaultSettings(): Settings {
  return {
    provider: 'anthropic',
    preset: '',
    apiKey: '',
    baseUrl: '',
    modelId: 'claude-sonnet-4-5',
    thinking: 'off',
    maxTokens: 0,
    approvalMode: 'auto',
    protectedPaths: ['.git/**', '.env*'],
    activeTools: [...DEFAULT_ACTIVE_TOOLS],
    runtimePreference: 'auto',
    theme: 'system',
    customInstructions: '',
    onboarded: false,
    modelLimits: {},
    compaction: defaultCompactionPreferences(),
  };
}

const oneOf = <T extends string>(value: unknown, allowed: readonly T[], fallback: T): T =>
  typeof value === 'string' && (allowed as readonly string[]).includes(value) ? (value as T) : fallback;
const stringOr = (value: unknown, fallback: string): string => (typeof value === 'string' ? value : fallback);
const stringList = (value: unknown, fallback: string[]): string[] =>
  Array.isArray(value) && value.every((v) => typeof v === 'string') ? [...value] : [...fallback];

/** Settings read back from storage (or anywhere untrusted): every field checked, unknown or broken ones defaulted. */
export function parseSettings(raw: unknown): Settings {
  const d = defaultSettings();
  if (typeof raw !== 'object' || raw === null) return d;
  const r = raw as Record<string, unknown>;
  const maxTokens = typeof r.maxTokens === 'number' && Number.isFinite(r.maxTokens) && r.maxTokens >= 0 ? Math.floor(r.maxTokens) : d.maxTokens;
  return {
    provider: oneOf(r.provider, PROVIDER_IDS, d.provider),
    preset: stringOr(r.preset, d.preset),
    apiKey: stringOr(r.apiKey, d.apiKey),
    baseUrl: stringOr(r.baseUrl, d.baseUrl),
    modelId: stringOr(r.modelId, d.modelId),
    thinking: oneOf(r.thinking, ['off', 'low', 'medium', 'high'] as const, d.thinking),
    maxTokens,
    approvalMode: oneOf(r.approvalMode, ['auto', 'ask', 'read-only'] as const, d.approvalMode),
    protectedPaths: stringList(r.protectedPaths, d.protectedPaths),
    activeTools: stringList(r.activeTools, d.activeTools).filter(isCodingToolName),
    runtimePreference: oneOf(r.runtimePreference, ['auto', 'webcontainer', 'embedded'] as const, d.runtimePreference),
    theme: oneOf(r.theme, ['system', 'light', 'dark'] as const, d.theme),
    customInstructions: stringOr(r.customInstructions, d.customInstructions),
    onboarded: r.onboarded === true,
    modelLimits: parseModelLimits(r.modelLimits),
    compaction: parseCompactionPreferences(r.compaction),
  };
}
