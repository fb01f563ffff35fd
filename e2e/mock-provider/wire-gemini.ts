// Gemini streamGenerateContent?alt=sse (`data:` chunks separated by CRLF pairs; the last carries finishReason).
import { chunks, stopReasonOf, textDeltas, usageOf, type MockTurn } from './script';
import { geminiGrounding } from './wire-web-tools';

const data = (value: unknown) => `data: ${JSON.stringify(value)}\r\n\r\n`;

export function geminiFrames(turn: MockTurn, model: string, serial: number): string[] {
  const usage = usageOf(turn);
  const usageMetadata = {
    promptTokenCount: usage.input + usage.cacheRead, candidatesTokenCount: usage.output,
    totalTokenCount: usage.input + usage.cacheRead + usage.output,
    ...(usage.cacheRead ? { cachedContentTokenCount: usage.cacheRead } : {}),
  };
  const chunk = (parts: unknown[], finishReason?: string) =>
    data({
      // Grounding comes whole on the last chunk, as Gemini sends it.
      candidates: [{ content: { parts, role: 'model' }, index: 0, ...(finishReason ? { finishReason, ...geminiGrounding(turn.content) } : {}) }],
      usageMetadata, modelVersion: model, responseId: `mock-${serial}`,
    });
  const frames: string[] = [];
  for (const block of turn.content) {
    if (block.type === 'thinking') {
      const pieces = chunks(block.thinking);
      pieces.forEach((text, i) => {
        const last = i === pieces.length - 1;
        frames.push(chunk([{ text, thought: true, ...(last ? { thoughtSignature: block.signature ?? `gsig_mock_${serial}` } : {}) }]));
      });
    } else if (block.type === 'text') {
      const pieces = textDeltas(block);
      pieces.forEach((text, i) => {
        const signed = block.signature && i === pieces.length - 1;
        frames.push(chunk([{ text, ...(signed ? { thoughtSignature: block.signature } : {}) }]));
      });
    } else if (block.type === 'webSearch' || block.type === 'webFetch') {
      continue; // told in the last chunk's grounding metadata
    } else {
      // Gemini sends each call whole; malformed string arguments cannot be expressed, so they arrive as {}.
      const args = typeof block.arguments === 'string' ? {} : block.arguments;
      frames.push(chunk([{ functionCall: { name: block.name, args, ...(block.id ? { id: block.id } : {}) },
        ...(block.signature ? { thoughtSignature: block.signature } : {}) }]));
    }
  }
  const stop = stopReasonOf(turn);
  frames.push(chunk([{ text: '' }], stop === 'length' ? 'MAX_TOKENS' : 'STOP'));
  return frames;
}

export const geminiMalformedFrame = 'data: {"candidates":[{"content":{,,,\r\n\r\n';

const STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL', 503: 'UNAVAILABLE',
};

export function geminiError(status: number, message?: string): unknown {
  return { error: { code: status, message: message ?? defaultMessage(status), status: STATUS[status] ?? 'UNKNOWN' } };
}

/** An error chunk inside a 200 stream, as Gemini sends it when the model becomes overloaded midway. */
export const geminiErrorEvent = data({ error: { code: 503, message: 'The model is overloaded. Please try again later.', status: 'UNAVAILABLE' } });

/** Gemini answers a bad key with HTTP 400 INVALID_ARGUMENT, not 401. */
export function geminiBadKey(): unknown {
  return { error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT',
    details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com',
      metadata: { service: 'generativelanguage.googleapis.com' } }] } };
}

/** Gemini's 400 INVALID_ARGUMENT for input over the window: `tokens` sent, `window` allowed. */
export function geminiContextTooLong(tokens = 1_200_000, window = 1_048_576): unknown {
  return geminiError(400, `The input token count (${tokens}) exceeds the maximum number of tokens allowed (${window}).`);
}

function defaultMessage(status: number): string {
  if (status === 401) return 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.';
  if (status === 403) return "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.";
  if (status === 429) return 'Resource has been exhausted (e.g. check quota).';
  if (status === 503) return 'The model is overloaded. Please try again later.';
  return 'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting';
}
