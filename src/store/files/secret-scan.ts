// Finds things that look like secrets in what is about to be exported, so the person can review and redact them.
import type { Message } from '../../ai/types';
import { decodeText } from './workspace-diff';
import type { FileMap, SecretFinding, SecretKind } from '../types';

const MAX_SCANNED_FILE_BYTES = 2 * 1024 ** 2; // bigger files are data or bundles, not where keys are kept by hand

// Order matters: the specific prefixes come before the generic "sk-" one, and overlapping matches keep the first.
const PATTERNS: { kind: SecretKind; pattern: RegExp }[] = [
  { kind: 'private-key', pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----(?:[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----)?/g },
  { kind: 'anthropic-key', pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  { kind: 'openai-key', pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g },
  { kind: 'google-key', pattern: /\bAIza[0-9A-Za-z_-]{35}/g },
  { kind: 'github-token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})/g },
  { kind: 'slack-token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  { kind: 'aws-access-key', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
];

export type ScanInput = { messages?: Message[]; files?: FileMap; baseline?: FileMap; knownSecrets?: string[] };

/**
 * Secret-looking strings in the transcript and files: common API key formats, private keys, every value in
 * `.env*` files, and any of `knownSecrets` (pass the person's own API keys so they are caught in any form).
 */
export function scanForSecrets(input: ScanInput): SecretFinding[] {
  const findings: SecretFinding[] = [];
  const known = (input.knownSecrets ?? []).filter((s) => s.length >= 8);
  const add = (base: Omit<SecretFinding, 'id' | 'line' | 'kind' | 'preview' | 'value' | 'context'>, text: string) => {
    for (const match of findInText(text, known)) findings.push({ ...base, ...match, id: `s${findings.length}` });
  };
  for (const [seq, message] of (input.messages ?? []).entries()) {
    for (const { field, text } of stringsOf(message)) add({ where: 'transcript', seq, field }, text);
  }
  for (const [where, files] of [['workspace', input.files], ['baseline', input.baseline]] as const) {
    for (const [path, bytes] of files ?? []) {
      if (bytes.length > MAX_SCANNED_FILE_BYTES) continue;
      const text = decodeText(bytes);
      if (text === null) continue;
      add({ where, path }, text);
      if (isEnvFile(path)) {
        for (const match of envValues(text)) {
          const covered = findings.some((f) => f.where === where && f.path === path && f.value.includes(match.value));
          if (!covered) findings.push({ where, path, ...match, id: `s${findings.length}` });
        }
      }
    }
  }
  return findings;
}

/** Copies of the messages and files with every selected finding's text replaced by [REDACTED] where it was found. */
export function redactSecrets<T extends ScanInput>(input: T, findings: SecretFinding[]): T {
  const bySeq = groupValues(findings.filter((f) => f.where === 'transcript'), (f) => String(f.seq));
  const byFile = {
    workspace: groupValues(findings.filter((f) => f.where === 'workspace'), (f) => f.path ?? ''),
    baseline: groupValues(findings.filter((f) => f.where === 'baseline'), (f) => f.path ?? ''),
  };
  const output: T = { ...input };
  if (input.messages) {
    output.messages = input.messages.map((message, seq) => {
      const values = bySeq.get(String(seq));
      return values ? (mapStrings(message, (s) => redact(s, values)) as Message) : message;
    });
  }
  const redactFiles = (files: FileMap | undefined, groups: Map<string, string[]>) =>
    files &&
    new Map(
      [...files].map(([path, bytes]) => {
        const values = groups.get(path);
        const text = values ? decodeText(bytes) : null;
        return [path, text === null || !values ? bytes : new TextEncoder().encode(redact(text, values))];
      }),
    );
  if (input.files) output.files = redactFiles(input.files, byFile.workspace);
  if (input.baseline) output.baseline = redactFiles(input.baseline, byFile.baseline);
  return output;
}

function findInText(text: string, known: string[]) {
  const found: Span[] = [];
  const record = (kind: SecretKind, value: string, start: number) => {
    const end = start + value.length;
    if (found.some((f) => start < f.end && end > f.start)) return;
    found.push({ kind, value, start, end });
  };
  for (const secret of known) {
    for (let at = text.indexOf(secret); at >= 0; at = text.indexOf(secret, at + secret.length)) record('known-secret', secret, at);
  }
  for (const { kind, pattern } of PATTERNS) {
    for (const match of text.matchAll(pattern)) record(kind, match[0], match.index ?? 0);
  }
  return found.map((f) => ({ line: lineAt(text, f.start), kind: f.kind, preview: mask(f.value), value: f.value, context: contextOf(text, f, found) }));
}

type Span = { kind: SecretKind; value: string; start: number; end: number };

/** Characters of context shown on each side of a secret. */
const CONTEXT_CHARS = 40;

/**
 * The line around `span` with it and every other secret of `spans` on that line masked, cut to CONTEXT_CHARS on
 * each side; a cut never falls inside a masked secret (it drops that one whole), so no part of one shows.
 */
function contextOf(text: string, span: Span, spans: Span[]): string {
  const lineStart = text.lastIndexOf('\n', span.start - 1) + 1;
  const newline = text.indexOf('\n', span.start);
  const lineEnd = newline < 0 ? text.length : newline;
  const onLine = spans.filter((s) => s.start < lineEnd && s.end > lineStart).sort((a, b) => a.start - b.start);
  const before: { text: string; secret: boolean }[] = [];
  const after: { text: string; secret: boolean }[] = [];
  let at = lineStart;
  for (const s of onLine) {
    if (s.start > at) (s.start <= span.start ? before : after).push({ text: text.slice(at, s.start), secret: false });
    if (s !== span) (s.start < span.start ? before : after).push({ text: inlineMask(s.value), secret: true });
    at = Math.max(at, s.end);
  }
  if (lineEnd > at) after.push({ text: text.slice(at, lineEnd), secret: false });
  const left = keep(before.reverse(), (t, n) => t.slice(-n)).reverse();
  const right = keep(after, (t, n) => t.slice(0, n));
  const joined = (parts: { text: string }[]) => parts.map((p) => p.text).join('');
  const head = joined(left).length < joined(before).length ? '…' : '';
  const tail = joined(right).length < joined(after).length ? '…' : '';
  return `${head}${joined(left)}${inlineMask(span.value)}${joined(right)}${tail}`.replace(/\s+/g, ' ').trim();
}

/** Parts (nearest first) up to CONTEXT_CHARS: plain text is cut, a masked secret that does not fit is left out. */
function keep(parts: { text: string; secret: boolean }[], cut: (text: string, n: number) => string) {
  const kept: { text: string; secret: boolean }[] = [];
  let room = CONTEXT_CHARS;
  for (const part of parts) {
    if (room <= 0) break;
    if (part.text.length <= room) {
      kept.push(part);
      room -= part.text.length;
    } else {
      if (!part.secret) kept.push({ text: cut(part.text, room), secret: false });
      break;
    }
  }
  return kept;
}

/** A secret as it shows inside its context: what mask() shows, the rest as dots. */
function inlineMask(value: string): string {
  if (value.startsWith('-----BEGIN')) return `${value.split('\n')[0]}••••`;
  if (value.length <= 8) return '•'.repeat(value.length);
  return `${knownPrefix(value)}••••••${value.slice(-2)}`;
}

/** `.env`, `.env.local`, `config/.env.production`... */
export function isEnvFile(path: string): boolean {
  const name = path.split('/').at(-1) ?? '';
  return name === '.env' || name.startsWith('.env.');
}

function envValues(text: string) {
  const values: { line: number; kind: SecretKind; preview: string; value: string; context: string }[] = [];
  for (const [index, raw] of text.split('\n').entries()) {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*?)\s*$/.exec(raw);
    if (!match) continue;
    const value = match[2].replace(/^(['"])(.*)\1$/, '$2');
    if (!value || value === '[REDACTED]') continue;
    values.push({ line: index + 1, kind: 'env-value', preview: `${match[1]}=${mask(value)}`, value, context: `${match[1]}=${inlineMask(value)}` });
  }
  return values;
}

/** Enough to recognise the secret, not enough to use it. */
function mask(value: string): string {
  if (value.startsWith('-----BEGIN')) return value.split('\n')[0];
  if (value.length <= 8) return '•'.repeat(value.length);
  return `${knownPrefix(value)}…${value.slice(-2)} (${value.length} characters)`;
}

/** The part of a key that names its kind (sk-ant-, ghp_...), else its first two characters. */
function knownPrefix(value: string): string {
  return /^(sk-ant-|sk-proj-|sk-|github_pat_|gh[pousr]_|xox[abposr]-|AIza|AKIA|ASIA)/.exec(value)?.[0] ?? value.slice(0, 2);
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at >= 0 && at < index; at = text.indexOf('\n', at + 1)) line++;
  return line;
}

function redact(text: string, values: string[]): string {
  // Longest first, so a value containing another is replaced whole.
  let out = text;
  for (const value of [...values].sort((a, b) => b.length - a.length)) out = out.split(value).join('[REDACTED]');
  return out;
}

function groupValues(findings: SecretFinding[], key: (f: SecretFinding) => string): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const finding of findings) groups.set(key(finding), [...(groups.get(key(finding)) ?? []), finding.value]);
  return groups;
}

/** Every string inside a message, with its slash path ("content/0/arguments/command"). */
function stringsOf(value: unknown, path = ''): { field: string; text: string }[] {
  if (typeof value === 'string') return [{ field: path, text: value }];
  if (typeof value !== 'object' || value === null) return [];
  const entries = Array.isArray(value) ? value.entries() : Object.entries(value);
  const out: { field: string; text: string }[] = [];
  for (const [key, child] of entries) {
    // Images are base64 data: random letters that match key patterns by chance.
    if (key === 'data' && (value as { type?: unknown }).type === 'image') continue;
    out.push(...stringsOf(child, path ? `${path}/${key}` : String(key)));
  }
  return out;
}

function mapStrings(value: unknown, change: (s: string) => string): unknown {
  if (typeof value === 'string') return change(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, change));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'data' && (value as { type?: unknown }).type === 'image' ? v : mapStrings(v, change)]));
  }
  return value;
}
