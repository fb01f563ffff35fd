// The read tool: a text file page by page, an image as image content, a binary file as a short notice.
import { Type, type Static } from '@sinclair/typebox';
import type { AgentTool } from '../agent/types';
import type { Runtime } from '../runtime/types';
import { Workspace } from '../runtime/workspace/workspace';
import { effectsOf } from './catalog';
import { hasNulByte, imageMimeType, shellQuote, textResult, throwIfAborted } from './tool-support';
import { countLines, DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, truncateHead } from './truncate';
import { decodeUtf8Strict, formatBytes, toBase64, utf8Length } from './utf8';

export const readParameters = Type.Object({
  path: Type.String({ description: 'Path of the file to read, relative to the project folder or absolute.' }),
  offset: Type.Optional(
    Type.Integer({ minimum: 1, description: 'Line number to start reading from (1 = first line). Use it to continue a cut read.' }),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, description: 'Maximum number of lines to return.' })),
});

export type ReadArguments = Static<typeof readParameters>;

export interface ReadDetails {
  path: string;
  kind: 'text' | 'image' | 'binary';
  totalLines?: number;
  shownLines?: { from: number; to: number };
  truncatedBy?: 'lines' | 'bytes' | 'limit' | null;
}

/** The read tool over `target`'s workspace. */
export function createReadTool(target: Runtime | Workspace): AgentTool<typeof readParameters> {
  const workspace = Workspace.of(target);
  return {
    name: 'read',
    label: 'Read',
    description:
      `Read a file. Text comes back as-is, up to ${DEFAULT_MAX_LINES} lines or ${DEFAULT_MAX_BYTES / 1024} KB per call; ` +
      'a cut read ends with a notice giving the offset to continue from. Use offset and limit to read part of a ' +
      'large file. PNG, JPEG, GIF and WebP images come back as images. Paths are relative to the project folder.',
    parameters: readParameters,
    effects: (args) => effectsOf('read', [workspace.resolve(args.path)]),
    async execute(_toolCallId, args, signal) {
      const absolute = workspace.resolve(args.path);
      const shown = workspace.display(absolute);
      const stat = await workspace.stat(absolute);
      if (stat === null) {
        throw new Error(`File not found: ${args.path} (resolved to ${absolute}). Use ls or find to locate the file.`);
      }
      if (stat.type === 'dir') throw new Error(`${args.path} is a directory, not a file. Use ls to list its contents.`);
      const bytes = await workspace.readFile(absolute);
      throwIfAborted(signal, 'Reading the file');

      const mimeType = imageMimeType(bytes);
      if (mimeType) {
        return {
          content: [
            { type: 'text', text: `Read image ${shown} (${mimeType}, ${formatBytes(bytes.length)}).` },
            { type: 'image', data: toBase64(bytes), mimeType },
          ],
          details: { path: shown, kind: 'image' } satisfies ReadDetails,
        };
      }
      const decoded = hasNulByte(bytes) ? null : decodeUtf8Strict(bytes);
      if (decoded === null) {
        return textResult(
          `${shown} is a binary file (${formatBytes(bytes.length)}, not UTF-8 text), so its content is not shown. ` +
            `Inspect it with bash if needed, e.g. \`od -c ${shellQuote(shown)} | head -n 20\`.`,
          { path: shown, kind: 'binary' } satisfies ReadDetails,
        );
      }
      return readTextPage(decoded.startsWith('\ufeff') ? decoded.slice(1) : decoded, shown, args);
    },
  };
}

function readTextPage(text: string, shown: string, args: ReadArguments) {
  const totalLines = countLines(text);
  const first = args.offset ?? 1;
  if (totalLines === 0) {
    if (first > 1) throw new Error(`Offset ${first} is past the end of ${shown}, which is empty (0 lines).`);
    return textResult(`(${shown} is empty)`, { path: shown, kind: 'text', totalLines: 0 } satisfies ReadDetails);
  }
  if (first > totalLines) {
    throw new Error(
      `Offset ${first} is past the end of ${shown}, which has ${totalLines} ${totalLines === 1 ? 'line' : 'lines'}. ` +
        `Use an offset from 1 to ${totalLines}.`,
    );
  }

  const wanted = Math.min(args.limit ?? DEFAULT_MAX_LINES, DEFAULT_MAX_LINES);
  const start = offsetOfLine(text, first);
  const end = endOfLines(text, start, wanted);
  const cut = truncateHead(text.slice(start, end), { maxLines: wanted });

  if (cut.firstLineExceedsLimit) {
    const lineEnd = text.indexOf('\n', start);
    const lineBytes = utf8Length(text.slice(start, lineEnd === -1 ? text.length : lineEnd));
    return textResult(
      `[Line ${first} of ${shown} is ${formatBytes(lineBytes)}, more than the ${formatBytes(DEFAULT_MAX_BYTES)} ` +
        `one read may return. Read it in pieces with bash, e.g. \`sed -n '${first}p' ${shellQuote(shown)} | ` +
        `cut -c 1-20000\` (then 20001-40000, ...), or \`sed -n '${first}p' ${shellQuote(shown)} | head -c ${DEFAULT_MAX_BYTES}\`.` +
        (first < totalLines ? ` Use offset=${first + 1} to read the lines after it.` : '') + ']',
      { path: shown, kind: 'text', totalLines, shownLines: { from: first, to: first - 1 }, truncatedBy: 'bytes' } satisfies ReadDetails,
    );
  }

  const last = first + cut.outputLines - 1;
  let notice = '';
  let truncatedBy: ReadDetails['truncatedBy'] = null;
  if (last < totalLines) {
    if (cut.truncatedBy === 'bytes') {
      truncatedBy = 'bytes';
      notice = `[Showing lines ${first}-${last} of ${totalLines} (${formatBytes(DEFAULT_MAX_BYTES)} limit). Use offset=${last + 1} to continue.]`;
    } else if (args.limit !== undefined && args.limit <= DEFAULT_MAX_LINES) {
      truncatedBy = 'limit';
      notice = `[${totalLines - last} more lines in ${shown} (${totalLines} in total). Use offset=${last + 1} to continue.]`;
    } else {
      truncatedBy = 'lines';
      notice = `[Showing lines ${first}-${last} of ${totalLines}. Use offset=${last + 1} to continue.]`;
    }
  }
  const body = cut.content.endsWith('\n') ? cut.content.slice(0, -1) : cut.content;
  return textResult(notice ? `${body}\n\n${notice}` : body, {
    path: shown, kind: 'text', totalLines, shownLines: { from: first, to: last }, truncatedBy,
  } satisfies ReadDetails);
}

/** Offset of the first character of 1-based line `line`. */
function offsetOfLine(text: string, line: number): number {
  let at = 0;
  for (let i = 1; i < line; i++) at = text.indexOf('\n', at) + 1;
  return at;
}

/** Offset just past the `count`-th line starting at `start` (its newline excluded). */
function endOfLines(text: string, start: number, count: number): number {
  let at = start;
  for (let i = 0; i < count; i++) {
    const newline = text.indexOf('\n', at);
    if (newline === -1) return text.length;
    if (i === count - 1) return newline;
    at = newline + 1;
  }
  return at;
}
