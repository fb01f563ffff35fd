// The write tool: creates or overwrites a whole file, making parent folders as needed.
import { Type, type Static } from '@sinclair/typebox';
import type { AgentTool } from '../agent/types';
import type { Runtime } from '../runtime/types';
import { Workspace } from '../runtime/workspace/workspace';
import { effectsOf } from './catalog';
import { parentOf } from './paths';
import { textResult, throwIfAborted } from './tool-support';
import { countLines } from './truncate';

export const writeParameters = Type.Object({
  path: Type.String({ description: 'Path of the file to write, relative to the project folder or absolute.' }),
  content: Type.String({ description: 'The complete new content of the file.' }),
});

export type WriteArguments = Static<typeof writeParameters>;

export interface WriteDetails {
  path: string;
  created: boolean;
  bytes: number;
  lines: number;
}

/** The write tool over `target`'s workspace; writes to one file are serialized with every other writer of it. */
export function createWriteTool(target: Runtime | Workspace): AgentTool<typeof writeParameters> {
  const workspace = Workspace.of(target);
  return {
    name: 'write',
    label: 'Write',
    description:
      'Write a file with the given content: creates it (and any missing parent folders) or overwrites it entirely. ' +
      'To change part of an existing file, prefer the edit tool.',
    parameters: writeParameters,
    effects: (args) => effectsOf('write', [workspace.resolve(args.path)]),
    async execute(_toolCallId, args, signal) {
      const absolute = workspace.resolve(args.path);
      const shown = workspace.display(absolute);
      return workspace.mutate(absolute, async (target, runtime) => {
        throwIfAborted(signal, 'Writing the file');
        const existing = await runtime.stat(target);
        if (existing?.type === 'dir') {
          throw new Error(`${args.path} is a directory; give the path of a file inside it.`);
        }
        await runtime.mkdir(parentOf(target));
        const bytes = new TextEncoder().encode(args.content);
        await runtime.writeFile(target, bytes);
        const details: WriteDetails = {
          path: shown,
          created: existing === null,
          bytes: bytes.length,
          lines: countLines(args.content),
        };
        const verb = details.created ? 'Created' : 'Overwrote';
        const bytesText = `${details.bytes} ${details.bytes === 1 ? 'byte' : 'bytes'}`;
        return textResult(`${verb} ${shown}: wrote ${bytesText}, ${details.lines} ${details.lines === 1 ? 'line' : 'lines'}.`, details);
      });
    },
  };
}
