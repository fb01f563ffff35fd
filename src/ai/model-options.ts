// The models a person can pick for a provider: the catalog, or once the provider's own list has arrived, that list
// merged with the catalog (the provider knows what the key can use and its limits; the catalog knows prices).
// Deprecated models are marked and sorted last; the default pick is never one of them.
import { deprecationOf, isRetired } from './model-deprecations';
import type { ListedModel } from './model-list';
import { customModel, defaultModelFor, findModel, modelsFor } from './models';
import type { Model } from './types';

export type ModelOption = {
  id: string;
  name: string;
  contextWindow: number;
  maxTokens: number;
  /** Unknown when absent. */
  cost?: Model['cost'];
  /** Deprecated at the provider: the day it stops answering (ISO date) when known, and whether that has passed. */
  deprecated?: { endOfLife?: string; retired: boolean };
  /** The limits come from the provider's list (not the catalog or a guess). */
  reportedLimits: boolean;
  /** In the provider's list for this key (false: catalog only, the list was not fetched). */
  listed: boolean;
  /** Conch's catalog knows it (otherwise, without reported limits, the limits are a guess). */
  inCatalog: boolean;
};

/** Options for `provider`: the live list merged with the catalog when `listed` is given, else the catalog. */
export function modelOptions(provider: string, listed: readonly ListedModel[] | null, today: Date = new Date()): ModelOption[] {
  if (!listed) return modelsFor(provider).map((model) => option(provider, model, undefined, today));
  const catalogOrder = new Map(modelsFor(provider).map((model, index) => [model.id, index]));
  const options = listed.map((item) => option(provider, customModel(provider, item.id), item, today));
  const rank = (o: ModelOption) => catalogOrder.get(o.id) ?? Number.MAX_SAFE_INTEGER;
  return options.sort((a, b) => Number(!!a.deprecated) - Number(!!b.deprecated) || rank(a) - rank(b) || a.id.localeCompare(b.id));
}

/**
 * The model to pick when the person has not chosen one: the provider's default when the list offers it (or there is
 * no list), else the first option that is not deprecated; '' when there is none.
 */
export function defaultPick(provider: string, options: readonly ModelOption[]): string {
  const preferred = defaultModelFor(provider)?.id;
  if (preferred && options.some((o) => o.id === preferred && !o.deprecated)) return preferred;
  return options.find((o) => !o.deprecated)?.id ?? '';
}

/** The option for any id a person typed (catalog figures when known, guessed limits and unknown price otherwise). */
export function optionFor(provider: string, id: string, today: Date = new Date()): ModelOption {
  return option(provider, customModel(provider, id), undefined, today);
}

function option(provider: string, model: Model, item: ListedModel | undefined, today: Date): ModelOption {
  const known = deprecationOf(provider, model.id);
  const endOfLife = item?.retiresAt ?? known?.endOfLife;
  const flagged = !!known || !!item?.lifecycle;
  return {
    id: model.id,
    name: item?.name && model.name === model.id ? item.name : model.name,
    contextWindow: item?.contextWindow ?? model.contextWindow,
    maxTokens: item?.maxTokens ?? model.maxTokens,
    ...(model.cost ? { cost: model.cost } : {}),
    ...(flagged
      ? { deprecated: { endOfLife, retired: item?.lifecycle === 'retired' || (endOfLife !== undefined && isRetired({ endOfLife }, today)) } }
      : {}),
    reportedLimits: item?.contextWindow !== undefined || item?.maxTokens !== undefined,
    listed: item !== undefined,
    inCatalog: findModel(provider, model.id) !== undefined,
  };
}
