// What went wrong talking to a server, told once for the person (the server's state) and for the model (a tool's
// error). The transports throw their own kinds (StreamableHTTPError with an HTTP status, McpError with a JSON-RPC
// code, the fetch's TypeError); they are told apart here by shape, so this file loads none of the SDK.
import { errorText } from '../../ai/messages';

/** What a browser's fetch says of a server without CORS headers (a TypeError that names nothing). */
export const CORS_MESSAGE =
  'this server does not allow browser clients: it must send Access-Control-Allow-Origin and expose Mcp-Session-Id';

export type FailureKind = 'needs-auth' | 'session-expired' | 'unreachable' | 'timeout' | 'aborted' | 'other';

const REQUEST_TIMEOUT = -32001; // the SDK's McpError code for a request over its timeout

/** The kind of `error` from a transport or the client. */
export function failureKind(error: unknown): FailureKind {
  if (!(error instanceof Error)) return 'other';
  const code = (error as { code?: unknown }).code;
  if (error.name === 'AbortError') return 'aborted';
  if (error.constructor.name === 'UnauthorizedError' || code === 401) return 'needs-auth';
  if (code === 404) return 'session-expired';
  if (code === REQUEST_TIMEOUT) return 'timeout';
  if (error instanceof TypeError || /fetch failed|Failed to fetch|NetworkError|ECONNREFUSED/i.test(error.message)) return 'unreachable';
  return 'other';
}

/** The error's own words, without the SDK's "MCP error -32603:" and "Error POSTing to endpoint:" wrappers. */
export function failureText(error: unknown): string {
  const text = errorText(error)
    .replace(/^MCP error -?\d+: /, '')
    .replace(/^(Streamable HTTP error: )?Error POSTing to endpoint: ?/, '');
  const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return (text.trim() || 'no reason given') + cause;
}

/**
 * Why a server that fetch could not reach is unreachable: CORS when a no-cors probe gets through. When it does not,
 * both remain possible: a cross-origin isolated page (COEP require-corp, as Conch's is) refuses every no-cors answer
 * that lacks Cross-Origin-Resource-Policy, so a page cannot tell a server without CORS from one that is down.
 */
export async function unreachableReason(fetchFn: typeof fetch, url: string): Promise<string> {
  try {
    // An opaque answer to a no-cors request means something is there: then only the CORS headers are missing.
    await fetchFn(url, { method: 'GET', mode: 'no-cors', signal: AbortSignal.timeout(5000) });
    return CORS_MESSAGE;
  } catch {
    return `the server at ${url} does not answer this page: it is not running, the address is wrong, or ${CORS_MESSAGE}`;
  }
}
