// The script that drives the mock provider: turns of assistant content, each optionally guarded by a rule on the
// request and optionally carrying a fault. Shared by the four wire encoders and the server.

export type MockBlock =
  /** `deltas`, when given, are sent as the text's deltas exactly (they should join to `text`); else three. */
  | {
      type: 'text';
      text: string;
      deltas?: string[];
      /** Gemini only: a thoughtSignature on the text's last chunk, as Gemini 3 sends it when thoughts are hidden. */
      signature?: string;
      /** Web sources the text cites (each wire's own citation form; ignored by Chat Completions). */
      citations?: { url: string; title: string; citedText: string }[];
    }
  /** A search the provider ran itself (wire-web-tools.ts); `error` is the provider's error code instead of results. */
  | { type: 'webSearch'; query: string; results: { url: string; title: string }[]; id?: string; error?: string }
  /** A page the provider fetched itself (OpenAI: an open_page action; Gemini: URL context). */
  | { type: 'webFetch'; url: string; title?: string; text?: string; id?: string; error?: string }
  | { type: 'thinking'; thinking: string; signature?: string }
  /** `arguments` as a string is sent verbatim (use it for malformed JSON). */
  | {
      type: 'toolCall';
      name: string;
      arguments: Record<string, unknown> | string;
      id?: string;
      /** Gemini only: the thoughtSignature sent on the functionCall part. */
      signature?: string;
    };

export type MockFault =
  /** Answer with this HTTP status `times` times (default 1) before serving the turn; the turn stays queued meanwhile. */
  | { type: 'status'; status: number; times?: number; retryAfter?: string; retryAfterMs?: number; message?: string }
  /** Answer 400 with the provider's own "context too long" error `times` times (default 1), whatever the size. */
  | { type: 'contextTooLong'; times?: number }
  /** Answer with the provider's own rejected-key error `times` times (default 1); Gemini's is HTTP 400, not 401. */
  | { type: 'badKey'; times?: number }
  /** Answer the provider's own "model not found" error (HTTP 404) `times` times (default 1). */
  | { type: 'modelNotFound'; times?: number }
  /** After this many frames, send the provider's in-stream error (overloaded / server error), then end. */
  | { type: 'errorEvent'; afterFrames: number }
  /** Destroy the socket after sending this many SSE frames. */
  | { type: 'disconnect'; afterFrames: number }
  /** Send a frame whose data is not JSON after this many frames, then end the response. */
  | { type: 'malformed'; afterFrames: number }
  /** Stop sending after this many frames and keep the connection open (for abort tests). */
  | { type: 'stall'; afterFrames: number };

export type MockUsage = { input: number; output: number; cacheRead: number; cacheWrite: number };

export type MockRule = {
  lastToolResultContains?: string;
  lastUserContains?: string;
  /** A turn for Conch's compaction summary requests; other turns never answer those. */
  summary?: boolean;
};

export type MockTurn = {
  /** Serve this turn only to a request matching every given rule; turns without `when` match any agent request. */
  when?: MockRule;
  content: MockBlock[];
  /** Serve this turn this many times before it is used up (default 1): one turn for a long repetitive session. */
  times?: number;
  /** Default: toolUse when the turn has tool calls, else stop. */
  stopReason?: 'stop' | 'length' | 'toolUse';
  /** Anthropic only: the API paused a long turn of server tools (stop reason pause_turn), to be sent back and continued. */
  pauseTurn?: boolean;
  usage?: Partial<MockUsage>;
  /** Wait before sending response headers. */
  delayMs?: number;
  /** Wait between SSE frames. */
  chunkDelayMs?: number;
  /** Send frames at this steady interval, measured from the first frame (no drift over long streams). */
  frameIntervalMs?: number;
  fault?: MockFault;
};

export type WireApi = 'anthropic' | 'openai-chat' | 'openai-responses' | 'gemini';

export const DEFAULT_USAGE: MockUsage = { input: 120, output: 40, cacheRead: 0, cacheWrite: 0 };

export function usageOf(turn: MockTurn): MockUsage {
  return { ...DEFAULT_USAGE, ...turn.usage };
}

export function stopReasonOf(turn: MockTurn): 'stop' | 'length' | 'toolUse' {
  return turn.stopReason ?? (turn.content.some((b) => b.type === 'toolCall') ? 'toolUse' : 'stop');
}

export function argumentsText(block: Extract<MockBlock, { type: 'toolCall' }>): string {
  return typeof block.arguments === 'string' ? block.arguments : JSON.stringify(block.arguments);
}

/** Splits text into `pieces` roughly equal chunks so deltas really stream (never empty chunks). */
export function chunks(text: string, pieces = 3): string[] {
  if (text.length <= 1) return [text];
  const size = Math.ceil(text.length / Math.min(pieces, text.length));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** The deltas a text block streams as. */
export function textDeltas(block: Extract<MockBlock, { type: 'text' }>): string[] {
  return block.deltas && block.deltas.length > 0 ? block.deltas : chunks(block.text);
}

/** Checks the script file / control-endpoint payload; throws a message naming the first problem. */
export function parseScript(value: unknown): MockTurn[] {
  const turns = Array.isArray(value) ? value : (value as { turns?: unknown } | null)?.turns;
  if (!Array.isArray(turns)) throw new Error('A mock script is an array of turns, or { "turns": [...] }.');
  turns.forEach((turn, i) => {
    if (typeof turn !== 'object' || turn === null || !Array.isArray((turn as MockTurn).content)) {
      throw new Error(`Turn ${i} needs a "content" array (it may be empty).`);
    }
    const times = (turn as MockTurn).times;
    if (times !== undefined && (!Number.isInteger(times) || times < 1)) throw new Error(`Turn ${i} has "times" ${JSON.stringify(times)}; it must be a whole number from 1.`);
    for (const block of (turn as MockTurn).content) {
      if (!['text', 'thinking', 'toolCall', 'webSearch', 'webFetch'].includes((block as MockBlock)?.type)) {
        throw new Error(`Turn ${i} has a block of unknown type ${JSON.stringify((block as MockBlock)?.type)}.`);
      }
    }
  });
  return turns as MockTurn[];
}

/** What the `when` rules look at. */
export type RequestFacts = { lastToolResult?: string; lastUser?: string; summary?: boolean };

/** What the `when` rules look at, read from a request body of any of the four wire formats (`summary` is set by the caller). */
export function requestFacts(api: WireApi, body: unknown): RequestFacts {
  const b = (body ?? {}) as Record<string, unknown>;
  const facts: RequestFacts = {};
  const items: unknown[] = Array.isArray(b.messages) ? b.messages : Array.isArray(b.input) ? b.input : Array.isArray(b.contents) ? b.contents : [];
  for (const raw of items) {
    const item = raw as Record<string, unknown>;
    if (api === 'anthropic' && item.role === 'user') {
      const content = item.content;
      const blocks = Array.isArray(content) ? (content as Record<string, unknown>[]) : [];
      const results = blocks.filter((x) => x.type === 'tool_result');
      if (results.length > 0) facts.lastToolResult = JSON.stringify(results[results.length - 1].content);
      else facts.lastUser = JSON.stringify(content);
    } else if (api === 'openai-chat') {
      if (item.role === 'tool') facts.lastToolResult = JSON.stringify(item.content);
      if (item.role === 'user') facts.lastUser = JSON.stringify(item.content);
    } else if (api === 'openai-responses') {
      if (item.type === 'function_call_output') facts.lastToolResult = JSON.stringify(item.output);
      if (item.role === 'user') facts.lastUser = JSON.stringify(item.content);
    } else if (api === 'gemini' && item.role === 'user') {
      const parts = (Array.isArray(item.parts) ? item.parts : []) as Record<string, unknown>[];
      const responses = parts.filter((p) => p.functionResponse);
      if (responses.length > 0) facts.lastToolResult = JSON.stringify(responses[responses.length - 1].functionResponse);
      else facts.lastUser = JSON.stringify(parts);
    }
  }
  return facts;
}

export function matches(turn: MockTurn, facts: RequestFacts): boolean {
  const rule = turn.when;
  if ((rule?.summary ?? false) !== (facts.summary ?? false)) return false;
  if (!rule) return true;
  if (rule.lastToolResultContains !== undefined && !facts.lastToolResult?.includes(rule.lastToolResultContains)) return false;
  if (rule.lastUserContains !== undefined && !facts.lastUser?.includes(rule.lastUserContains)) return false;
  return true;
}
