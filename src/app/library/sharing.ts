// Sharing a session: an export goes through a secret review first (the person's own API key is always redacted,
// whatever they choose), and an imported session file becomes a new stored session.
import {
  buildSessionDownload,
  exportSessionHtml,
  importSessionIntoStore,
  loadSessionExport,
  redactSessionExport,
  scanSessionExport,
  downloadName,
  type SecretFinding,
  type SessionExportInput,
  type SessionRecord,
  type SessionStore,
} from '../../store';
import { latestTodoList } from '../../agent/todo-list';
import { exportedToolCall } from '../session/tool-cards/tool-summary';

export type ExportFormat = 'session' | 'html';

/** A session gathered for export, with what the secret scan found in it. */
export type PreparedExport = { input: SessionExportInput; findings: SecretFinding[] };

export type ExportDownload = { fileName: string; data: Uint8Array; mimeType: string };

/** Loads stored session `sessionId` for export and scans it; pass the person's API keys as `knownSecrets`. */
export async function prepareSessionExport(store: SessionStore, sessionId: string, knownSecrets: string[]): Promise<PreparedExport> {
  const input = await loadSessionExport(store, sessionId);
  return { input, findings: scanSessionExport(input, knownSecrets.filter((k) => k.trim() !== '')) };
}

/** Findings that are redacted whatever the person chooses: their own keys. */
export function mandatoryRedactions(findings: SecretFinding[]): SecretFinding[] {
  return findings.filter((f) => f.kind === 'known-secret');
}

/** The file to download, with `redact` (plus every mandatory redaction) replaced by [REDACTED]. */
export async function buildExport(prepared: PreparedExport, redact: SecretFinding[], format: ExportFormat): Promise<ExportDownload> {
  const chosen = new Map([...redact, ...mandatoryRedactions(prepared.findings)].map((f) => [f.id, f]));
  const redacted = await redactSessionExport(prepared.input, [...chosen.values()]);
  // The title comes from the first prompt, so whatever was redacted there must go from the title too.
  const title = [...chosen.values()].reduce((t, f) => t.split(f.value).join('[REDACTED]'), redacted.session.title);
  const input: SessionExportInput = { ...redacted, session: { ...redacted.session, title } };
  if (format === 'session') {
    const { fileName, data } = buildSessionDownload(input);
    return { fileName, data, mimeType: 'application/zip' };
  }
  const html = exportSessionHtml(input.session, input.messages, {
    files: [...input.workspace.keys()].sort(),
    compactions: input.compactions,
    describeToolCall: exportedToolCall,
    todos: latestTodoList(input.messages),
    tasks: input.tasks,
  });
  return {
    fileName: downloadName(input.session.title, '.html', 'session'),
    data: new TextEncoder().encode(html),
    mimeType: 'text/html',
  };
}

/** Validates a session file and stores it as a new session; throws SessionFileError (line, field) and stores nothing. */
export function importSharedSession(store: SessionStore, data: Uint8Array | Blob): Promise<SessionRecord> {
  return importSessionIntoStore(store, data);
}
