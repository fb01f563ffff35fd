// The person's settings for long sessions: a model's context window and output limit where the catalog does not know
// them (or the person knows better, e.g. a small local model), and when compaction runs. They live inside Settings;
// their shapes, defaults and checks are here so settings.ts only names them.
import { customModel, findModel } from '../../ai/models';
import type { Model } from '../../ai/types';
import { keepRecentTokensFor, reserveTokensFor, type CompactionSettings } from '../../agent/compaction';

/** Limits the person set for one model; a missing field keeps the catalog's figure (or the assumption). */
export type ModelLimits = { contextWindow?: number; maxOutput?: number };
/** The person's limits per model, keyed by `modelLimitsKey`. */
export type ModelLimitsMap = Record<string, ModelLimits>;

/** When to compact: `reserveTokens` and `keepRecentTokens` of 0 use the defaults for the model's window. */
export type CompactionPreferences = { auto: boolean; reserveTokens: number; keepRecentTokens: number };

/** The smallest context window accepted: below it not even the system prompt and one reply fit. */
export const MIN_CONTEXT_WINDOW = 2_048;
export const MAX_CONTEXT_WINDOW = 100_000_000;
export const MIN_MAX_OUTPUT = 256;

export function defaultCompactionPreferences(): CompactionPreferences {
  return { auto: true, reserveTokens: 0, keepRecentTokens: 0 };
}

/** The key of a model's limits: the same id at another provider is another model. */
export function modelLimitsKey(provider: string, modelId: string): string {
  return `${provider}/${modelId.trim()}`;
}

/** A model's limits as Conch knows them without the person: the catalog's, else the assumption for unknown ids. */
export function knownLimits(provider: string, modelId: string): { contextWindow: number; maxOutput: number; fromCatalog: boolean } {
  const model = customModel(provider, modelId);
  return { contextWindow: model.contextWindow, maxOutput: model.maxTokens, fromCatalog: findModel(provider, modelId.trim()) !== undefined };
}

/** `model` with the limits the person set for it. */
export function withModelLimits(model: Model, limits: ModelLimitsMap): Model {
  const own = limits[modelLimitsKey(model.provider, model.id)];
  if (!own) return model;
  return { ...model, contextWindow: own.contextWindow ?? model.contextWindow, maxTokens: own.maxOutput ?? model.maxTokens };
}

/** What a provider's own model list reported for a model (Anthropic, Gemini and OpenRouter list limits). */
export type ReportedLimits = { modelId: string; contextWindow: number; maxTokens: number };

/**
 * The model's limits as they apply: the catalog's (or the 128k guess), then what the provider reported for it, then
 * what the person typed for it, each winning over the one before.
 */
export function withLimits(model: Model, reported: ReportedLimits | null | undefined, limits: ModelLimitsMap): Model {
  const listed = reported && reported.modelId === model.id ? { ...model, contextWindow: reported.contextWindow, maxTokens: reported.maxTokens } : model;
  return withModelLimits(listed, limits);
}

/** The context window the settings point at (for the meter); never throws. */
export function contextWindowOf(settings: { provider: string; modelId: string; modelLimits: ModelLimitsMap; reportedLimits?: ReportedLimits | null }): number {
  return withLimits(customModel(settings.provider, settings.modelId), settings.reportedLimits, settings.modelLimits).contextWindow;
}

/** The core's compaction settings from the person's preferences. */
export function compactionSettingsOf(preferences: CompactionPreferences): CompactionSettings {
  return {
    auto: preferences.auto,
    reserveTokens: preferences.reserveTokens > 0 ? preferences.reserveTokens : undefined,
    keepRecentTokens: preferences.keepRecentTokens > 0 ? preferences.keepRecentTokens : undefined,
  };
}

/** What the defaults come to for a window (shown beside the fields). */
export function defaultCompactionFigures(contextWindow: number): { reserveTokens: number; keepRecentTokens: number } {
  return { reserveTokens: reserveTokensFor(contextWindow), keepRecentTokens: keepRecentTokensFor(contextWindow) };
}

const wholeIn = (value: unknown, min: number, max: number): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max ? Math.floor(value) : undefined;

/** Stored limits read back: entries that are not sane token counts are dropped. */
export function parseModelLimits(raw: unknown): ModelLimitsMap {
  const limits: ModelLimitsMap = {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return limits;
  for (const [key, value] of Object.entries(raw)) {
    if (typeof value !== 'object' || value === null) continue;
    const entry = value as Record<string, unknown>;
    const own: ModelLimits = {};
    const contextWindow = wholeIn(entry.contextWindow, MIN_CONTEXT_WINDOW, MAX_CONTEXT_WINDOW);
    const maxOutput = wholeIn(entry.maxOutput, MIN_MAX_OUTPUT, MAX_CONTEXT_WINDOW);
    if (contextWindow !== undefined) own.contextWindow = contextWindow;
    if (maxOutput !== undefined) own.maxOutput = maxOutput;
    if (Object.keys(own).length > 0) limits[key] = own;
  }
  return limits;
}

/** Stored compaction preferences read back; anything broken falls back to the default. */
export function parseCompactionPreferences(raw: unknown): CompactionPreferences {
  const defaults = defaultCompactionPreferences();
  if (typeof raw !== 'object' || raw === null) return defaults;
  const r = raw as Record<string, unknown>;
  return {
    auto: typeof r.auto === 'boolean' ? r.auto : defaults.auto,
    reserveTokens: wholeIn(r.reserveTokens, 0, MAX_CONTEXT_WINDOW) ?? defaults.reserveTokens,
    keepRecentTokens: wholeIn(r.keepRecentTokens, 0, MAX_CONTEXT_WINDOW) ?? defaults.keepRecentTokens,
  };
}
