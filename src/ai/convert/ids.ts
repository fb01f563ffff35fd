// Tool-call ids travel between providers when a session switches model midway. Each provider accepts a different
// alphabet and length, so ids are rewritten deterministically: the same original id always maps to the same result,
// which keeps a call and its result paired without any lookup table.

/** A short, stable, non-cryptographic hash (two FNV-1a passes), as base-36 text. */
export function shortHash(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    a = Math.imul(a ^ code, 0x01000193) >>> 0;
    b = Math.imul(b ^ code, 0x5bd1e995) >>> 0;
  }
  return a.toString(36) + b.toString(36);
}

/** Rewrites `id` to match `[a-zA-Z0-9_-]{1,maxLength}`; ids that already match are returned unchanged. */
export function safeToolCallId(id: string, maxLength: number): string {
  if (id.length > 0 && id.length <= maxLength && /^[a-zA-Z0-9_-]+$/.test(id)) return id;
  const hash = shortHash(id);
  const cleaned = id.replace(/[^a-zA-Z0-9_-]/g, '_');
  return `${cleaned.slice(0, Math.max(0, maxLength - hash.length - 1))}_${hash}`.slice(-maxLength);
}

/** Anthropic accepts `^[a-zA-Z0-9_-]{1,64}$`. */
export const anthropicToolCallId = (id: string): string => safeToolCallId(id, 64);

/** OpenAI Chat Completions rejects tool-call ids longer than 40 characters. */
export const openAIChatToolCallId = (id: string): string => safeToolCallId(id, 40);

/** A fresh id for providers that return none (Gemini). */
export function newToolCallId(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
}
