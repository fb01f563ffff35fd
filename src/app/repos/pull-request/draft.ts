// "Draft with the model": one request to the session's model, through the same provider plumbing a run uses, that
// writes a pull request's title and body from what was asked and said in the session and the files that changed.
// The transcript goes as text (tool calls and results left out) and, when long, as its most recent part.
import { messageText } from '../../../ai/messages';
import type { Message, Model, StreamFn } from '../../../ai/types';
import type { FileChange as ListedChange } from '../../../store';

export type PullRequestDraft = { title: string; body: string };

export type DraftCall = { model: Model; streamFn: StreamFn; apiKey?: string; signal?: AbortSignal };

const TRANSCRIPT_CHARS = 12_000;
const MAX_TOKENS = 1024;

const INSTRUCTIONS =
  'You write pull request descriptions. Reply with the title alone on the first line (under 72 characters, no ' +
  'quotes or prefix), then a blank line, then the body in Markdown: what changed and why, in a few sentences or bullets.';

/** The title and body the model wrote; throws the provider's error, written for the person, when the request failed. */
export async function draftPullRequest(messages: readonly Message[], changes: readonly ListedChange[], call: DraftCall): Promise<PullRequestDraft> {
  const request = `${INSTRUCTIONS}\n\nThe conversation:\n${transcriptText(messages)}\n\nThe changed files:\n${changes.map((c) => `- ${c.status} ${c.path}`).join('\n')}`;
  const reply = await call.streamFn(
    call.model,
    { systemPrompt: '', messages: [{ role: 'user', content: request, timestamp: Date.now() }], tools: [] },
    { apiKey: call.apiKey || undefined, maxTokens: MAX_TOKENS, signal: call.signal },
  ).result();
  if (reply.stopReason === 'error' || reply.stopReason === 'aborted') {
    throw new Error(`The model could not draft the pull request: ${reply.errorMessage ?? 'the request failed'}. Write the title and body yourself, or try again.`);
  }
  return parseDraft(messageText(reply));
}

/** The reply read as a title (its first line, without a Markdown heading mark) and the rest as the body. */
export function parseDraft(text: string): PullRequestDraft {
  const lines = text.trim().split('\n');
  const title = (lines[0] ?? '').replace(/^#+\s*/, '').replace(/^title:\s*/i, '').trim();
  return { title, body: lines.slice(1).join('\n').trim() };
}

function transcriptText(messages: readonly Message[]): string {
  const said = messages
    .filter((m) => m.role === 'user' || m.role === 'assistant')
    .map((m) => `${m.role === 'user' ? 'Person' : 'Agent'}: ${messageText(m, { separator: ' ' }).trim()}`)
    .filter((line) => !line.endsWith(':'));
  const text = said.join('\n');
  return text.length > TRANSCRIPT_CHARS ? `…${text.slice(-TRANSCRIPT_CHARS)}` : text;
}
