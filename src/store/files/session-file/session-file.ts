// The shareable session file (DESIGN.md "Session file"): <slug>-<date>.conch.zip holding
//   session.jsonl            line 1 a header, then one {"type":"entry","seq":n,"message":{...}} line per message, and
//                            a {"type":"compaction",...} line where each compaction was made (after entry atSeq - 1),
//                            then one {"type":"task",...} line per subagent task (a TaskEntry), in call order
//   workspace/<path>         the files at the end
//   baseline/<path>          the imported tree, so the Changes view works after import
//   snapshots/...            the checkpoints as trees, each file once (checkpoints.ts)
//   checkpoints/<seq>.zip    (files written before snapshots/) workspace zips taken when user message <seq> was sent
// Import validates everything before returning anything; unknown top-level entries are ignored, but a line of a type
// this Conch does not know is refused, naming the line. A task must answer a `task` call of the transcript: one that
// answers none (or a second line for the same call) is refused, naming its line, rather than dropped unseen.
import { Type } from '@sinclair/typebox';
import { zipSync, type Zippable } from 'fflate';
import type { CompactionEntry, Message, TaskEntry } from '../../../ai/types';
import type { ObjectId } from '../../../runtime/object-id';
import { findCompactionProblem } from '../../compaction-schema';
import { downloadName } from '../download-name';
import { SessionFileError, ZipImportError } from '../../errors';
import { describe, findMessageProblem, firstProblem } from '../../message-schema';
import { findTaskProblem } from '../../task-schema';
import { blobIdsOf } from '../../objects/trees/files';
import { addSnapshotEntries, readSnapshotEntries, type SessionSnapshots } from './checkpoints';
import { commonTopFolder } from '../../zip/workspace-paths';
import { formatBytes, readRepoZip } from '../../zip/repo-zip';
import type { FileMap, SessionFileContents, SessionFileHeader, ZipImportOptions } from '../../types';

export const SESSION_FORMAT = 'conch-session';
export const SESSION_VERSION = 1;
export const MAX_LINE_CHARS = 64 * 1024 ** 2;
export const MAX_LINES = 1_000_000;

/** What an export is made from (the session's fields the header carries, plus its content). */
export interface SessionExportInput {
  session: { id: string; title: string; createdAt: number; model: string; provider: string };
  messages: Message[];
  /** In the order made; each is written where it was made in the transcript. */
  compactions?: CompactionEntry[];
  /** Subagent tasks, in call order; each is written after the entries. */
  tasks?: TaskEntry[];
  workspace: FileMap;
  baseline?: FileMap | null;
  /** Checkpoint zips (the form before content addressing). */
  checkpoints?: Map<number, Uint8Array>;
  /** Checkpoints as trees, written so that each file is in the session file once. */
  snapshots?: SessionSnapshots;
}

const HeaderSchema = Type.Object({
  type: Type.Literal('header'),
  format: Type.Literal(SESSION_FORMAT),
  version: Type.Literal(SESSION_VERSION),
  id: Type.String(),
  title: Type.String(),
  createdAt: Type.Number(),
  model: Type.String(),
  provider: Type.String(),
  exportedAt: Type.Number(),
});

/** The export's download name: `<slug>-<YYYY-MM-DD>.conch.zip` (download-name.ts), `date` the day of the download. */
export function sessionFileName(title: string, date: Date = new Date()): string {
  return downloadName(title, '.conch.zip', 'session', date);
}

/** The session file's bytes. Holds exactly what it is given: scan and redact secrets before calling. */
export function exportSessionFile(input: SessionExportInput, now = Date.now()): Uint8Array {
  const header: SessionFileHeader = {
    type: 'header',
    format: SESSION_FORMAT,
    version: SESSION_VERSION,
    id: input.session.id,
    title: input.session.title,
    createdAt: input.session.createdAt,
    model: input.session.model,
    provider: input.session.provider,
    exportedAt: now,
  };
  const lines = [JSON.stringify(header)];
  const compactions = [...(input.compactions ?? [])].filter((c) => c.atSeq <= input.messages.length);
  const compactionsAt = (seq: number) => {
    while (compactions.length > 0 && compactions[0].atSeq <= seq) lines.push(JSON.stringify(compactions.shift()));
  };
  for (const [seq, message] of input.messages.entries()) {
    compactionsAt(seq);
    lines.push(JSON.stringify({ type: 'entry', seq, message }));
  }
  compactionsAt(input.messages.length);
  for (const task of input.tasks ?? []) lines.push(JSON.stringify(task));
  const zip: Zippable = { 'session.jsonl': [new TextEncoder().encode(`${lines.join('\n')}\n`), { level: 6 }] };
  for (const [path, data] of input.workspace) zip[`workspace/${path}`] = [data, { level: 6 }];
  for (const [path, data] of input.baseline ?? []) zip[`baseline/${path}`] = [data, { level: 6 }];
  // Checkpoints are zips already: storing them again compressed would only cost time.
  for (const [seq, data] of input.checkpoints ?? []) zip[`checkpoints/${seq}.zip`] = [data, { level: 0 }];
  if (input.snapshots && input.snapshots.checkpoints.size > 0) {
    addSnapshotEntries(zip, input.snapshots, [...input.workspace.values(), ...(input.baseline?.values() ?? [])]);
  }
  return zipSync(zip);
}

/** Reads and validates a session file completely; throws SessionFileError (line and field) on any problem. */
export async function importSessionFile(data: Uint8Array, limits: Pick<ZipImportOptions, 'maxFiles' | 'maxTotalBytes' | 'maxRatio' | 'signal'> = {}): Promise<SessionFileContents> {
  let files: FileMap;
  try {
    files = (await readRepoZip(data, { ...limits, stripTopFolder: false })).files;
  } catch (error) {
    if (error instanceof ZipImportError) throw new SessionFileError(`This session file cannot be read: ${error.message}`);
    throw error;
  }
  // Tolerate a session file that was unpacked and zipped again inside a folder.
  if (!files.has('session.jsonl')) {
    const top = commonTopFolder(files.keys());
    if (top && files.has(`${top}session.jsonl`)) files = new Map([...files].map(([p, d]) => [p.slice(top.length), d]));
  }
  const jsonl = files.get('session.jsonl');
  if (!jsonl) {
    throw new SessionFileError('This is not a Conch session file: session.jsonl is missing. Export the session from Conch and import that file.');
  }
  const { header, messages, compactions, tasks } = parseSessionJsonl(jsonl);
  const workspace: FileMap = new Map();
  const baseline: FileMap = new Map();
  const checkpointFiles = new Map<number, Uint8Array>();
  for (const [path, bytes] of files) {
    if (path.startsWith('workspace/')) workspace.set(path.slice('workspace/'.length), bytes);
    else if (path.startsWith('baseline/')) baseline.set(path.slice('baseline/'.length), bytes);
    else if (path.startsWith('checkpoints/')) {
      const match = /^checkpoints\/(\d{1,8})\.zip$/.exec(path);
      const seq = match ? Number(match[1]) : -1;
      if (messages[seq]?.role !== 'user') {
        throw new SessionFileError(`${path}: a checkpoint must be named <seq>.zip after a user message of the transcript.`, { field: path });
      }
      checkpointFiles.set(seq, bytes);
    }
  }
  for (const [seq, zip] of checkpointFiles) {
    try {
      await readRepoZip(zip, { ...limits, stripTopFolder: false });
    } catch (error) {
      if (error instanceof ZipImportError) throw new SessionFileError(`checkpoints/${seq}.zip is unusable: ${error.message}`, { field: `checkpoints/${seq}.zip` });
      throw error;
    }
  }
  // Hashed here, off the page when a worker reads the file: the checkpoints below and storing the files use these ids.
  const workspaceIds = await blobIdsOf(workspace);
  const baselineIds = await blobIdsOf(baseline);
  const plainBlobs = new Map<ObjectId, Uint8Array>();
  for (const [path, data] of workspace) plainBlobs.set(workspaceIds.get(path)!, data);
  for (const [path, data] of baseline) plainBlobs.set(baselineIds.get(path)!, data);
  const snapshots = await readSnapshotEntries(files, (seq) => messages[seq]?.role === 'user', plainBlobs);
  for (const seq of snapshots?.checkpoints.keys() ?? []) {
    if (checkpointFiles.has(seq)) throw new SessionFileError(`Checkpoint ${seq} is in the session file twice (checkpoints/${seq}.zip and snapshots/); keep one.`, { field: `checkpoints/${seq}.zip` });
  }
  return { header, messages, compactions, tasks, workspace, baseline: baseline.size ? baseline : null, workspaceIds, baselineIds, checkpoints: checkpointFiles, snapshots };
}

/** The header, messages, compactions and tasks of session.jsonl, every line checked. */
export function parseSessionJsonl(bytes: Uint8Array): { header: SessionFileHeader; messages: Message[]; compactions: CompactionEntry[]; tasks: TaskEntry[] } {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new SessionFileError('session.jsonl is not UTF-8 text; the file is damaged.');
  }
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  if (lines.length > MAX_LINES) {
    throw new SessionFileError(`session.jsonl has ${lines.length.toLocaleString('en')} lines; the limit is ${MAX_LINES.toLocaleString('en')}.`);
  }
  if (lines.length === 0) throw new SessionFileError('session.jsonl is empty: line 1 should be the header.', { line: 1 });
  const header = parseHeader(parseLine(lines[0], 1));
  const messages: Message[] = [];
  const compactions: CompactionEntry[] = [];
  const tasks: { task: TaskEntry; lineNo: number }[] = [];
  for (let index = 1; index < lines.length; index++) {
    const lineNo = index + 1;
    const value = parseLine(lines[index], lineNo);
    const fail = (field: string, problem: string): never => {
      throw new SessionFileError(`session.jsonl line ${lineNo}, ${field}: ${problem}`, { line: lineNo, field });
    };
    if (typeof value !== 'object' || value === null || Array.isArray(value)) fail('(line)', 'must be a JSON object');
    const entry = value as { type?: unknown; seq?: unknown; message?: unknown };
    if (entry.type === 'compaction') {
      compactions.push(parseCompaction(value, messages.length, fail));
      continue;
    }
    if (entry.type === 'task') {
      const problem = findTaskProblem(value);
      if (problem) fail(problem.path || '(task)', problem.problem);
      tasks.push({ task: value as TaskEntry, lineNo });
      continue;
    }
    if (entry.type !== 'entry') {
      const unknown = typeof entry.type === 'string'
        ? ': a line type this Conch does not know, perhaps from a newer Conch. Reload the page to get the latest and import again.'
        : '';
      fail('type', `must be "entry", "compaction" or "task", got ${describe(entry.type)}${unknown}`);
    }
    if (entry.seq !== messages.length) fail('seq', `must be ${messages.length} (entries are numbered in order from 0), got ${describe(entry.seq)}`);
    const problem = findMessageProblem(entry.message);
    if (problem) fail(problem.path ? `message/${problem.path}` : 'message', problem.problem);
    messages.push(entry.message as Message);
  }
  return { header, messages, compactions, tasks: checkTaskCalls(tasks, messages) };
}

/** The tasks, once each is known to answer its own `task` call of `messages`; otherwise throws naming its line. */
function checkTaskCalls(tasks: { task: TaskEntry; lineNo: number }[], messages: Message[]): TaskEntry[] {
  const calls = new Set<string>();
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const block of message.content) if (block.type === 'toolCall' && block.name === 'task') calls.add(block.id);
  }
  const seen = new Set<string>();
  for (const { task, lineNo } of tasks) {
    const fail = (problem: string): never => {
      throw new SessionFileError(`session.jsonl line ${lineNo}, toolCallId: ${problem}`, { line: lineNo, field: 'toolCallId' });
    };
    if (!calls.has(task.toolCallId)) fail(`${describe(task.toolCallId)} is not a task call of the transcript, so this task answers nothing`);
    if (seen.has(task.toolCallId)) fail(`${describe(task.toolCallId)} has a task line already; each call has one`);
    seen.add(task.toolCallId);
  }
  return tasks.map(({ task }) => task);
}

/** A compaction line, which must sit where it was made: right after entry atSeq - 1. */
function parseCompaction(value: unknown, entriesBefore: number, fail: (field: string, problem: string) => never): CompactionEntry {
  const problem = findCompactionProblem(value, entriesBefore);
  if (problem) fail(problem.path || '(compaction)', problem.problem);
  const compaction = value as CompactionEntry;
  if (compaction.atSeq !== entriesBefore) {
    fail('atSeq', `must be ${entriesBefore} (the entries before this line), got ${compaction.atSeq}`);
  }
  return compaction;
}

function parseLine(line: string, lineNo: number): unknown {
  if (line.length > MAX_LINE_CHARS) {
    throw new SessionFileError(`session.jsonl line ${lineNo} is ${formatBytes(line.length)}, over the ${formatBytes(MAX_LINE_CHARS)} limit for one message.`, { line: lineNo });
  }
  const trimmed = line.endsWith('\r') ? line.slice(0, -1) : line;
  try {
    return JSON.parse(trimmed);
  } catch (error) {
    const reason = error instanceof Error ? error.message.slice(0, 120) : 'unreadable';
    throw new SessionFileError(`session.jsonl line ${lineNo} is not valid JSON (${reason}).`, { line: lineNo });
  }
}

function parseHeader(value: unknown): SessionFileHeader {
  const fail = (field: string, problem: string): never => {
    throw new SessionFileError(`session.jsonl line 1, ${field}: ${problem}`, { line: 1, field });
  };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail('(line)', 'must be the header object');
  const header = value as { type?: unknown; format?: unknown; version?: unknown };
  if (header.type !== 'header' || header.format !== SESSION_FORMAT) {
    fail('format', `this is not a Conch session file (expected "type":"header","format":"${SESSION_FORMAT}")`);
  }
  if (header.version !== SESSION_VERSION) {
    const newer = typeof header.version === 'number' && header.version > SESSION_VERSION;
    fail(
      'version',
      newer
        ? `this file is format version ${header.version}, made by a newer Conch; this Conch reads version ${SESSION_VERSION}. Reload the page to get the latest Conch and import again.`
        : `unknown version ${describe(header.version)}; this Conch reads version ${SESSION_VERSION}.`,
    );
  }
  const problem = firstProblem(HeaderSchema, value);
  if (problem) fail(problem.path || '(header)', problem.problem);
  return value as SessionFileHeader;
}
