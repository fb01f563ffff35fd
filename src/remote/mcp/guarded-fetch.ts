// The fetch the MCP transports use, between them and the page's fetch, because a server's answers are untrusted: an
// answer over the size cap is not read past it, an answer that is not JSON-RPC is replaced by a JSON-RPC error for
// the request it answers (so the call fails at once with the reason instead of waiting for its timeout), and a
// call's own signal ends its response stream when the call is over (a stream that never ends frees its connection).
import { formatBytes } from '../../tools/utf8';

/** The error code of the answers this file puts in place of a server's (JSON-RPC's "internal error"). */
export const GUARD_ERROR_CODE = -32603;

export type GuardLimits = { maxResponseBytes: number };

type Outgoing = { id: string | number; method: string; progressToken?: string };

export class GuardedFetch {
  private readonly calls = new Map<string, AbortSignal>();

  constructor(private readonly base: typeof fetch, private readonly limits: GuardLimits) {}

  /** Ties the request carrying `progressToken` to `signal`: its response stops being read once the signal aborts. */
  track(progressToken: string, signal: AbortSignal): () => void {
    this.calls.set(progressToken, signal);
    return () => this.calls.delete(progressToken);
  }

  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const outgoing = outgoingRequest(init?.body);
    const callSignal = outgoing?.progressToken === undefined ? undefined : this.calls.get(outgoing.progressToken);
    const signal = callSignal && init?.signal ? AbortSignal.any([init.signal, callSignal]) : (callSignal ?? init?.signal ?? undefined);
    const response = await this.base(input, { ...init, signal });
    if (!response.ok || response.body === null) return response;
    const type = (response.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
    if (type === 'text/event-stream') return withBody(response, response.body.pipeThrough(eventStreamGuard(outgoing, this.limits.maxResponseBytes)));
    if (outgoing && type === 'application/json') return withBody(response, await checkedJson(response.body, outgoing, this.limits.maxResponseBytes));
    return response;
  };
}

function outgoingRequest(body: unknown): Outgoing | undefined {
  if (typeof body !== 'string') return undefined;
  try {
    const message = JSON.parse(body) as { id?: unknown; method?: unknown; params?: { _meta?: { progressToken?: unknown } } };
    if ((typeof message.id !== 'string' && typeof message.id !== 'number') || typeof message.method !== 'string') return undefined;
    const token = message.params?._meta?.progressToken;
    return { id: message.id, method: message.method, progressToken: typeof token === 'string' ? token : undefined };
  } catch {
    return undefined;
  }
}

function withBody(response: Response, body: BodyInit): Response {
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

async function checkedJson(body: ReadableStream<Uint8Array>, outgoing: Outgoing, maxBytes: number): Promise<string> {
  const text = await readCapped(body, maxBytes);
  if (text === undefined) return JSON.stringify(guardError(outgoing, tooLarge(maxBytes)));
  const problem = jsonRpcProblem(text);
  return problem === undefined ? text : JSON.stringify(guardError(outgoing, problem));
}

async function readCapped(body: ReadableStream<Uint8Array>, maxBytes: number): Promise<string | undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return text + decoder.decode();
    bytes += value.byteLength;
    if (bytes > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    text += decoder.decode(value, { stream: true });
  }
}

/** What is wrong with `text` as a JSON-RPC 2.0 message (or batch of them), or undefined. */
export function jsonRpcProblem(text: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return `the server's answer is not JSON (it begins ${JSON.stringify(text.slice(0, 60))})`;
  }
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  for (const message of messages) {
    if (typeof message !== 'object' || message === null || (message as { jsonrpc?: unknown }).jsonrpc !== '2.0') {
      return `the server's answer is not a JSON-RPC 2.0 message (it begins ${JSON.stringify(text.slice(0, 60))})`;
    }
    const m = message as Record<string, unknown>;
    if (!('method' in m) && !('result' in m) && !('error' in m)) return "the server's answer is a JSON-RPC message with neither a result nor an error";
  }
  return undefined;
}

function tooLarge(maxBytes: number): string {
  return `the server's answer is over ${formatBytes(maxBytes)}, more than Conch reads; it was not read to the end`;
}

function guardError(outgoing: Outgoing, message: string) {
  return { jsonrpc: '2.0', id: outgoing.id, error: { code: GUARD_ERROR_CODE, message } };
}

// Passes a server-sent event stream through event by event, checking each event's data as JSON-RPC. A request's
// stream (a POST's answer) ends with an error answer for it at the first bad event or once it passes the size cap;
// the standalone stream (no request) just ends.
function eventStreamGuard(outgoing: Outgoing | undefined, maxBytes: number): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let pending = '';
  let bytes = 0;
  let ended = false;
  const end = (controller: TransformStreamDefaultController<Uint8Array>, problem: string) => {
    ended = true;
    if (outgoing) controller.enqueue(encoder.encode(`event: message\ndata: ${JSON.stringify(guardError(outgoing, problem))}\n\n`));
    controller.terminate();
  };
  return new TransformStream({
    transform(chunk, controller) {
      if (ended) return;
      bytes += chunk.byteLength;
      pending += decoder.decode(chunk, { stream: true });
      // The standalone stream lives long: only one event's size is capped there, not the whole stream's.
      if ((outgoing ? bytes : pending.length) > maxBytes) return end(controller, tooLarge(maxBytes));
      const events = pending.split(/\r?\n\r?\n/);
      pending = events.pop() ?? '';
      for (const event of events) {
        const lines = event.split(/\r?\n/);
        const data = lines.filter((line) => line.startsWith('data:')).map((line) => line.slice(line.startsWith('data: ') ? 6 : 5)).join('\n');
        // Only "message" events (the default type) carry JSON-RPC; the old transport's "endpoint" event carries a URL.
        const type = lines.find((line) => line.startsWith('event:'))?.slice(6).trim() || 'message';
        const problem = data === '' || type !== 'message' ? undefined : jsonRpcProblem(data);
        if (problem) return end(controller, problem);
        controller.enqueue(encoder.encode(`${event}\n\n`));
      }
      if (!outgoing) bytes = pending.length;
    },
    flush(controller) {
      if (!ended && pending.trim() !== '') controller.enqueue(encoder.encode(pending));
    },
  });
}
