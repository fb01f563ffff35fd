// The per-session record's rules: reading a stored one defensively, and what appending a message does to it.
import { messageText, titleFromPrompt } from '../../ai/messages';
import type { Message, Usage, UserMessage } from '../../ai/types';
import type { ImportedFrom, RepoOrigin, SessionRecord, StoredPushRecord, TokenTotals } from '../types';
import { unsafePathReason } from '../zip/workspace-paths';

/** The session record after `message` (at `seq`) was appended: counts, cost, tokens, model, title. */
export function accountFor(session: SessionRecord, message: Message, seq: number): SessionRecord {
  let next: SessionRecord = { ...session, messageCount: seq + 1, updatedAt: Date.now() };
  if (message.role === 'assistant') {
    next = accountUsage(next, message.usage);
    if (message.model) next.model = message.model;
    if (message.provider) next.provider = message.provider;
  } else if (message.role === 'user' && !session.title) {
    next.title = titleFrom(message);
  }
  return next;
}

/** The session record with `usage` (a reply's, or a compaction's summary calls') added to its cost and tokens. */
export function accountUsage(session: SessionRecord, usage: Usage | undefined): SessionRecord {
  if (!usage) return session;
  return {
    ...session,
    cost: session.cost + (Number.isFinite(usage.cost.total) ? usage.cost.total : 0),
    tokens: {
      input: session.tokens.input + usage.input,
      output: session.tokens.output + usage.output,
      cacheRead: session.tokens.cacheRead + usage.cacheRead,
      cacheWrite: session.tokens.cacheWrite + usage.cacheWrite,
    },
  };
}

/** A title from the first prompt (the one rule the whole app uses). */
export function titleFrom(message: UserMessage): string {
  return titleFromPrompt(messageText(message, { separator: ' ' }));
}

export function zeroTokens(): TokenTotals {
  return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
}

/** Reads a stored session record defensively: older or damaged records get defaults instead of crashing the list. */
export function normalizeSession(value: unknown): SessionRecord | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Partial<SessionRecord>;
  if (typeof v.id !== 'string') return null;
  const num = (n: unknown) => (typeof n === 'number' && Number.isFinite(n) ? n : 0);
  const tokens = (typeof v.tokens === 'object' && v.tokens !== null ? v.tokens : {}) as Partial<TokenTotals>;
  return {
    ...v,
    id: v.id,
    title: typeof v.title === 'string' ? v.title : '',
    createdAt: num(v.createdAt),
    updatedAt: num(v.updatedAt),
    model: typeof v.model === 'string' ? v.model : '',
    provider: typeof v.provider === 'string' ? v.provider : '',
    messageCount: num(v.messageCount),
    cost: num(v.cost),
    tokens: { input: num(tokens.input), output: num(tokens.output), cacheRead: num(tokens.cacheRead), cacheWrite: num(tokens.cacheWrite) },
    checkpoints: Array.isArray(v.checkpoints) ? v.checkpoints.filter((n): n is number => typeof n === 'number') : [],
    baselineName: typeof v.baselineName === 'string' ? v.baselineName : undefined,
    importedFrom: importedFromOf(v.importedFrom),
    origin: originOf(v.origin),
    pushRecord: pushRecordOf(v.pushRecord),
  };
}

/** A stored record's importedFrom when it is whole; anything else (older records, damage) reads as absent. */
function importedFromOf(value: unknown): ImportedFrom | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Partial<ImportedFrom>;
  const time = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);
  if (typeof v.title !== 'string' || !time(v.createdAt) || !time(v.exportedAt)) return undefined;
  return { title: v.title, createdAt: v.createdAt, exportedAt: v.exportedAt };
}


/** A stored record's origin when every field is there and of its kind; anything else reads as absent. */
export function originOf(value: unknown): RepoOrigin | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Partial<Record<keyof RepoOrigin, unknown>>;
  if (v.host !== 'github' && v.host !== 'gitlab') return undefined;
  const { web, owner, repo, ref, sha, folder } = v;
  if (![web, owner, repo, ref, sha].every((s) => typeof s === 'string' && s !== '')) return undefined;
  if (!/^[0-9a-f]{40}$/.test(sha as string) || !/^https?:\/\//.test(web as string)) return undefined;
  const origin: RepoOrigin = { host: v.host, web: web as string, owner: owner as string, repo: repo as string, ref: ref as string, sha: sha as string };
  // A folder that is not a plain relative path would send a push outside it: such a record is damaged.
  if (folder === undefined) return origin;
  if (typeof folder !== 'string' || folder === '' || unsafePathReason(folder) !== null) return undefined;
  return { ...origin, folder };
}

/** A stored push record when its envelope is whole; the record inside is checked by the app, which knows its shape. */
export function pushRecordOf(value: unknown): StoredPushRecord | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Partial<Record<keyof StoredPushRecord, unknown>>;
  if (v.host !== 'github' && v.host !== 'gitlab') return undefined;
  if (typeof v.base !== 'string' || !/^[0-9a-f]{40}$/.test(v.base)) return undefined;
  if (typeof v.record !== 'object' || v.record === null || Array.isArray(v.record)) return undefined;
  return { host: v.host, base: v.base, record: v.record as Record<string, unknown> };
}
