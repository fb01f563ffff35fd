// The edit tool: exact text replacements in one file, all-or-nothing, line endings and BOM preserved.
import { Type, type Static } from '@sinclair/typebox';
import type { AgentTool } from '../../agent/types';
import type { Runtime } from '../../runtime/types';
import { Workspace } from '../../runtime/workspace/workspace';
import { effectsOf } from '../catalog';
import { prepareEditArguments } from './arguments';
import { unifiedDiff } from './diff';
import { applyLocatedEdits, EditMatchError, locateEdits } from './match';
import { hasNulByte, textResult, throwIfAborted } from '../tool-support';
import { decodeUtf8Strict } from '../utf8';

export const editParameters = Type.Object({
  path: Type.String({ description: 'Path of the file to edit, relative to the project folder or absolute.' }),
  edits: Type.Array(
    Type.Object({
      oldText: Type.String({
        description: 'Exact text to replace, copied from the current file; must occur exactly once. Include enough surrounding lines to make it unique.',
      }),
      newText: Type.String({ description: 'Text to put in its place (empty to delete).' }),
    }),
    {
      minItems: 1,
      description: 'Replacements, each matched against the original file; they must not overlap. Applied all together or not at all.',
    },
  ),
});

export type EditArguments = Static<typeof editParameters>;

export interface EditDetails {
  path: string;
  diff: string;
  firstChangedLine: number | null;
  /** Indexes of edits matched only after tolerating whitespace, quote, dash or Unicode-form differences. */
  tolerantMatches: number[];
}

/** The edit tool over `target`'s workspace; edits of one file are serialized with every other writer of it. */
export function createEditTool(target: Runtime | Workspace): AgentTool<typeof editParameters> {
  const workspace = Workspace.of(target);
  return {
    name: 'edit',
    label: 'Edit',
    description:
      'Edit a file by replacing exact text. Each edit\'s oldText must match exactly one place in the current file ' +
      '(copy it from a read, with enough context to be unique); all edits are matched against the file as it was ' +
      'before this call, must not overlap, and are applied together or not at all. Small differences in trailing ' +
      'whitespace, quotes and dashes are tolerated. Line endings and a byte-order mark are preserved.',
    parameters: editParameters,
    prepareArguments: prepareEditArguments,
    effects: (args) => effectsOf('edit', [workspace.resolve(args.path)]),
    async execute(_toolCallId, args, signal) {
      const absolute = workspace.resolve(args.path);
      const shown = workspace.display(absolute);
      return workspace.mutate(absolute, async (target, runtime) => {
        throwIfAborted(signal, 'Editing the file');
        const stat = await runtime.stat(target);
        if (stat === null) {
          throw new Error(`File not found: ${args.path} (resolved to ${absolute}). Use ls or find to locate it, or write to create it.`);
        }
        if (stat.type === 'dir') throw new Error(`${args.path} is a directory, not a file.`);
        const bytes = await runtime.readFile(target);
        const decoded = hasNulByte(bytes) ? null : decodeUtf8Strict(bytes);
        if (decoded === null) throw new Error(`${args.path} is a binary file (not UTF-8 text); edit cannot change it.`);

        const file = splitFileText(decoded);
        let located;
        try {
          located = locateEdits(file.text, args.edits);
        } catch (error) {
          if (error instanceof EditMatchError) {
            throw new Error(`Could not edit ${shown}; nothing was written.\n\n${error.message}`);
          }
          throw error;
        }
        const updated = applyLocatedEdits(file.text, located);
        throwIfAborted(signal, 'Editing the file');
        // Bytes, not a string: TextEncoder is far cheaper on large files than a runtime's string path.
        await runtime.writeFile(target, new TextEncoder().encode(joinFileText(file, updated)));

        const { diff, firstChangedLine } = unifiedDiff(shown, file.text, updated);
        const tolerantMatches = located.filter((edit) => edit.matchedBy === 'tolerant').map((edit) => edit.index);
        const count = located.length === 1 ? '1 edit' : `${located.length} edits`;
        const where = firstChangedLine === null ? '' : ` (first change at line ${firstChangedLine})`;
        const tolerant = tolerantMatches.length === 0 ? '' :
          ` ${tolerantMatches.map((i) => `edits[${i}]`).join(', ')} matched after ignoring whitespace/quote/dash differences.`;
        const details: EditDetails = { path: shown, diff, firstChangedLine, tolerantMatches };
        return textResult(`Applied ${count} to ${shown}${where}.${tolerant}`, details);
      });
    },
  };
}

interface FileText {
  text: string; // LF line endings, no BOM
  bom: boolean;
  crlf: boolean;
}

// A file whose first line break is CRLF is treated as a CRLF file: matching happens on LF text and CRLF is
// restored on write.
function splitFileText(decoded: string): FileText {
  const bom = decoded.startsWith('\ufeff');
  const body = bom ? decoded.slice(1) : decoded;
  const firstBreak = body.indexOf('\n');
  const crlf = firstBreak > 0 && body.charCodeAt(firstBreak - 1) === 13;
  return { text: crlf ? body.replace(/\r\n/g, '\n') : body, bom, crlf };
}

function joinFileText(file: FileText, text: string): string {
  const body = file.crlf ? text.replace(/\n/g, '\r\n') : text;
  return file.bom ? `\ufeff${body}` : body;
}
