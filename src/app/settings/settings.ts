// The person's settings: what they chose, with defaults for a first visit. Persisted in the `settings` store;
// the API keys and host tokens live only there and in requests to their provider or host.
import { defaultModelFor } from '../../ai/models';
import { isProviderId, PROVIDER_IDS, type ProviderId } from '../../ai/provider-id';
import { CODING_TOOL_NAMES, DEFAULT_ACTIVE_TOOLS, isCodingToolName, type CodingToolName } from '../../tools/catalog';
import { DEFAULT_REGISTRY } from '../../runtime/embedded/npm/environment';
import {
  defaultCompactionPreferences,
  parseCompactionPreferences,
  parseModelLimits,
  type CompactionPreferences,
  type ModelLimitsMap,
  type ReportedLimits,
} from '../compaction/long-session-settings';
import type { McpServerConfig } from '../../remote/mcp/types';
import { mcpSecrets, parseMcpReviewed, parseMcpServers, type McpReviewed } from '../mcp/mcp-settings';
import { parseMcpOAuthRecord, type McpOAuthRecord } from '../../remote/mcp/oauth/credentials';

export { PROVIDER_IDS, isCodingToolName };
export type { CodingToolName, ProviderId, ReportedLimits };
export type ThinkingLevel = 'off' | 'low' | 'medium' | 'high';
/** `plan`: only the reading tools and todo, and the model is told to investigate and end with a plan. */
export type ApprovalMode = 'auto' | 'ask' | 'read-only' | 'plan';
/** The modes Plan mode's Start goes back to. */
export type WorkingMode = Exclude<ApprovalMode, 'plan'>;
const APPROVAL_MODES = ['auto', 'ask', 'read-only', 'plan'] as const satisfies readonly ApprovalMode[];
const WORKING_MODES = ['auto', 'ask', 'read-only'] as const satisfies readonly WorkingMode[];
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
  /** The mode before Plan mode was chosen: Start goes back to it. */
  modeBeforePlan: WorkingMode;
  protectedPaths: string[];
  activeTools: CodingToolName[];
  /**
   * Every tool that existed when these settings were saved, so a tool added since (off in `activeTools` only because
   * it did not exist) starts as its default says, while one the person switched off stays off.
   */
  knownTools: CodingToolName[];
  runtimePreference: RuntimePreference;
  theme: Theme;
  customInstructions: string;
  /** Where the embedded runtime's npm installs from (a mirror must allow this page: CORS). */
  npmRegistry: string;
  /** Set once the person has finished the first-visit welcome. */
  onboarded: boolean;
  /**
   * The base URL, model and key last used with each other provider (key: the provider id, or
   * `openai-compatible/<preset>`), so switching back brings them back instead of the defaults.
   */
  remembered: Record<string, ProviderChoice>;
  /** The limits the provider's own model list reported for `modelId` (Anthropic, Gemini, OpenRouter list them). */
  reportedLimits: ReportedLimits | null;
  /** Context window and output limit per model, where the person set them (long-session-settings.ts). */
  modelLimits: ModelLimitsMap;
  /** When the context is compacted (long-session-settings.ts). */
  compaction: CompactionPreferences;
  /** Optional: sent only to the GitHub API (private repos, 5,000 requests an hour instead of 60). */
  githubToken: string;
  /** https://api.github.com, or https://HOST/api/v3 for GitHub Enterprise. */
  githubApiUrl: string;
  githubRawUrl: string;
  /** Optional: sent only to the GitLab host as PRIVATE-TOKEN. */
  gitlabToken: string;
  /** https://gitlab.com, or a self-managed GitLab's address. */
  gitlabUrl: string;
  /** Remote MCP servers (their headers are secrets, like the API key). */
  mcpServers: McpServerConfig[];
  /** The tool descriptions the person accepted, so a reload asks again only when one changed. */
  mcpReviewed: McpReviewed;
  /** The MCP tools switched on, by registry name (mcp__<server>__<tool>); accepting a review switches its tools on. */
  mcpActiveTools: string[];
  /** Each MCP server's sign-in (OAuth tokens, registered client, PKCE verifier), by server id: secrets like API keys. */
  mcpOAuth: Record<string, McpOAuthRecord>;
  /** Subagents (the task tool): how many run at once, each one's turn cap, and the models they may be given. */
  subagents: SubagentSettings;
};

export type SubagentSettings = {
  /** At most this many subagents run at once (1-8); further tasks wait. */
  maxConcurrent: number;
  /** Model calls one subagent may make before it is stopped and reports what it has. */
  turnCap: number;
  /** Model ids the `task` tool may name for a subagent (of the session's provider); none: the session's model only. */
  models: string[];
};

export const DEFAULT_SUBAGENT_SETTINGS: SubagentSettings = { maxConcurrent: 4, turnCap: 50, models: [] };
export const MAX_CONCURRENT_SUBAGENTS = 8;

export const DEFAULT_GITHUB_API_URL = 'https://api.github.com';
export const DEFAULT_GITHUB_RAW_URL = 'https://raw.githubusercontent.com';
export const DEFAULT_GITLAB_URL = 'https://gitlab.com';

/** What the person had for one provider (or preset) before switching away. */
export type ProviderChoice = { baseUrl: string; modelId: string; apiKey: string; /** openai-compatible only */ preset?: string };

/** The default model id of a provider: the catalog's, never a deprecated one ('' for custom endpoints). */
export function defaultModelId(provider: ProviderId): string {
  return defaultModelFor(provider)?.id ?? '';
}

/** A fresh copy of the defaults for a first visit. */
export function defaultSettings(): Settings {
  return {
    provider: 'anthropic',
    preset: '',
    apiKey: '',
    baseUrl: '',
    modelId: defaultModelId('anthropic'),
    thinking: 'off',
    maxTokens: 0,
    approvalMode: 'auto',
    modeBeforePlan: 'auto',
    protectedPaths: ['.git/**', '.env*'],
    activeTools: [...DEFAULT_ACTIVE_TOOLS],
    knownTools: [...CODING_TOOL_NAMES],
    runtimePreference: 'auto',
    theme: 'system',
    customInstructions: '',
    npmRegistry: DEFAULT_REGISTRY,
    onboarded: false,
    remembered: {},
    reportedLimits: null,
    modelLimits: {},
    compaction: defaultCompactionPreferences(),
    githubToken: '',
    githubApiUrl: DEFAULT_GITHUB_API_URL,
    githubRawUrl: DEFAULT_GITHUB_RAW_URL,
    gitlabToken: '',
    gitlabUrl: DEFAULT_GITLAB_URL,
    mcpServers: [],
    mcpReviewed: {},
    mcpActiveTools: [],
    mcpOAuth: {},
    subagents: { ...DEFAULT_SUBAGENT_SETTINGS, models: [] },
  };
}

/**
 * Conch's first default model, written into every settings record saved before the catalog named its own default.
 * It reached end of life on 2026-11-30; a record from that time still holding it (and nothing remembered per
 * provider, which came with the change) was most likely never chosen, so it moves to the current default.
 */
const LEGACY_DEFAULT_MODEL = 'claude-sonnet-4-5';

const oneOf = <T extends string>(value: unknown, allowed: readonly T[], fallback: T): T =>
  typeof value === 'string' && (allowed as readonly string[]).includes(value) ? (value as T) : fallback;
const stringOr = (value: unknown, fallback: string): string => (typeof value === 'string' ? value : fallback);
const stringList = (value: unknown, fallback: string[]): string[] =>
  Array.isArray(value) && value.every((v) => typeof v === 'string') ? [...value] : [...fallback];

// An emptied address field means the default again; a trailing slash is dropped so paths join cleanly.
const addressOr = (value: unknown, fallback: string): string =>
  typeof value === 'string' && value.trim() !== '' ? value.trim().replace(/\/+$/, '') : fallback;

/** Every secret the settings hold (API keys, remembered keys, host tokens): what an export's secret review must catch. */
export function settingsSecrets(settings: Settings): string[] {
  const all = [settings.apiKey, ...Object.values(settings.remembered).map((c) => c.apiKey), settings.githubToken, settings.gitlabToken, ...mcpSecrets(settings.mcpServers), ...mcpOAuthSecrets(settings.mcpOAuth)];
  return [...new Set(all.map((s) => s.trim()).filter(Boolean))];
}

/** Settings read back from storage (or anywhere untrusted): every field checked, unknown or broken ones defaulted. */
export function parseSettings(raw: unknown): Settings {
  const d = defaultSettings();
  if (typeof raw !== 'object' || raw === null) return d;
  const r = raw as Record<string, unknown>;
  const maxTokens = typeof r.maxTokens === 'number' && Number.isFinite(r.maxTokens) && r.maxTokens >= 0 ? Math.floor(r.maxTokens) : d.maxTokens;
  const provider = isProviderId(r.provider) ? r.provider : d.provider;
  const legacyDefault = provider === 'anthropic' && r.modelId === LEGACY_DEFAULT_MODEL && r.remembered === undefined;
  return {
    provider,
    preset: stringOr(r.preset, d.preset),
    apiKey: stringOr(r.apiKey, d.apiKey),
    baseUrl: stringOr(r.baseUrl, d.baseUrl),
    modelId: legacyDefault ? d.modelId : stringOr(r.modelId, d.modelId),
    thinking: oneOf(r.thinking, ['off', 'low', 'medium', 'high'] as const, d.thinking),
    maxTokens,
    approvalMode: oneOf(r.approvalMode, APPROVAL_MODES, d.approvalMode),
    modeBeforePlan: oneOf(r.modeBeforePlan, WORKING_MODES, d.modeBeforePlan),
    protectedPaths: stringList(r.protectedPaths, d.protectedPaths),
    activeTools: parseActiveTools(r.activeTools, r.knownTools),
    knownTools: [...CODING_TOOL_NAMES],
    runtimePreference: oneOf(r.runtimePreference, ['auto', 'webcontainer', 'embedded'] as const, d.runtimePreference),
    theme: oneOf(r.theme, ['system', 'light', 'dark'] as const, d.theme),
    customInstructions: stringOr(r.customInstructions, d.customInstructions),
    npmRegistry: typeof r.npmRegistry === 'string' && r.npmRegistry.trim() !== '' ? r.npmRegistry.trim() : d.npmRegistry,
    onboarded: r.onboarded === true,
    remembered: parseRemembered(r.remembered),
    reportedLimits: parseLimits(r.reportedLimits),
    modelLimits: parseModelLimits(r.modelLimits),
    compaction: parseCompactionPreferences(r.compaction),
    githubToken: stringOr(r.githubToken, d.githubToken).trim(),
    githubApiUrl: addressOr(r.githubApiUrl, d.githubApiUrl),
    githubRawUrl: addressOr(r.githubRawUrl, d.githubRawUrl),
    gitlabToken: stringOr(r.gitlabToken, d.gitlabToken).trim(),
    gitlabUrl: addressOr(r.gitlabUrl, d.gitlabUrl),
    mcpServers: parseMcpServers(r.mcpServers),
    mcpReviewed: parseMcpReviewed(r.mcpReviewed),
    mcpActiveTools: stringList(r.mcpActiveTools, d.mcpActiveTools),
    mcpOAuth: parseMcpOAuth(r.mcpOAuth),
    subagents: parseSubagentSettings(r.subagents),
  };
}

const wholeIn = (value: unknown, min: number, max: number, fallback: number): number =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max ? value : fallback;

function parseSubagentSettings(raw: unknown): SubagentSettings {
  const r = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  return {
    maxConcurrent: wholeIn(r.maxConcurrent, 1, MAX_CONCURRENT_SUBAGENTS, DEFAULT_SUBAGENT_SETTINGS.maxConcurrent),
    turnCap: wholeIn(r.turnCap, 1, 1000, DEFAULT_SUBAGENT_SETTINGS.turnCap),
    models: stringList(r.models, []).filter((id) => id.trim() !== ''),
  };
}

/** The tools of every settings record saved before `knownTools` was (the todo tool came after). */
const TOOLS_BEFORE_KNOWN_TOOLS: readonly CodingToolName[] = ['read', 'write', 'edit', 'bash', 'grep', 'find', 'ls'];

/** The stored choice, plus the default tools that did not exist when it was stored (the todo list, for older records). */
function parseActiveTools(active: unknown, known: unknown): CodingToolName[] {
  const chosen = stringList(active, [...DEFAULT_ACTIVE_TOOLS]).filter(isCodingToolName);
  const knownThen = Array.isArray(known) ? known : Array.isArray(active) ? TOOLS_BEFORE_KNOWN_TOOLS : CODING_TOOL_NAMES;
  const added = DEFAULT_ACTIVE_TOOLS.filter((name) => !knownThen.includes(name) && !chosen.includes(name));
  return [...chosen, ...added];
}

/** `settings` switched to `mode`; entering Plan mode remembers the mode to go back to. */
export function withApprovalMode(settings: Settings, mode: ApprovalMode): Settings {
  const leaving = settings.approvalMode;
  const modeBeforePlan = mode === 'plan' && leaving !== 'plan' ? leaving : settings.modeBeforePlan;
  return { ...settings, approvalMode: mode, modeBeforePlan };
}

function parseRemembered(value: unknown): Record<string, ProviderChoice> {
  if (typeof value !== 'object' || value === null) return {};
  const out: Record<string, ProviderChoice> = {};
  for (const [key, raw] of Object.entries(value as Record<string, unknown>)) {
    if (typeof raw !== 'object' || raw === null) continue;
    const c = raw as Record<string, unknown>;
    out[key] = { baseUrl: stringOr(c.baseUrl, ''), modelId: stringOr(c.modelId, ''), apiKey: stringOr(c.apiKey, ''), ...(typeof c.preset === 'string' ? { preset: c.preset } : {}) };
  }
  return out;
}

function parseLimits(value: unknown): ReportedLimits | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  const positive = (n: unknown) => typeof n === 'number' && Number.isFinite(n) && n > 0;
  if (typeof v.modelId !== 'string' || !positive(v.contextWindow) || !positive(v.maxTokens)) return null;
  return { modelId: v.modelId, contextWindow: Math.floor(v.contextWindow as number), maxTokens: Math.floor(v.maxTokens as number) };
}

function parseMcpOAuth(value: unknown): Record<string, McpOAuthRecord> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).flatMap(([id, raw]) => {
    const record = parseMcpOAuthRecord(raw);
    return record ? [[id, record]] : [];
  }));
}

function mcpOAuthSecrets(records: Record<string, McpOAuthRecord>): string[] {
  return Object.values(records).flatMap((r) => [r.tokens?.access_token, r.tokens?.refresh_token, r.client?.client_secret].filter((s): s is string => !!s));
}
