// Nested instructions brought to the model where they apply: the first read, edit or write of a file under a folder
// with its own AGENTS.md gets that file's text appended to its tool result, the nearest folder first. What counts as
// delivered is what the model's context holds: it is read from the context a run starts from, and read again when a
// compaction replaces it, so instructions summarised away are attached again at the next file under their folder.
import type { AfterToolCallResult, AgentToolResult } from '../../agent/types';
import type { Message, TextContent, ToolCall } from '../../ai/types';
import type { CodingToolName } from '../../tools/catalog';
import { byteSize, fitToBudget, INSTRUCTIONS_BUDGET_BYTES } from './budget';
import { folderLabel, sourcesCovering, type InstructionSource } from './instruction-files';
import type { ProjectInstructions } from './project-instructions.svelte';

/** The tools whose file brings its folders' instructions. */
const FILE_TOOLS: readonly CodingToolName[] = ['read', 'edit', 'write'];

const HEADER = /^Instructions for .+? \(from (.+?)\):/;

type ToolCallOutcome = { toolCall: ToolCall; args: unknown; result: AgentToolResult; isError: boolean };

/** The attached part's opening line, which is also how a context is seen to hold it. */
export function instructionsHeader(source: InstructionSource): string {
  return `Instructions for ${folderLabel(source.folder)} (from ${source.path}):`;
}

/** The instruction files `messages` already hold, attached to tool results, with the bytes each takes. */
export function deliveredIn(messages: readonly Message[]): Map<string, number> {
  const delivered = new Map<string, number>();
  for (const message of messages) {
    if (message.role !== 'toolResult') continue;
    for (const part of message.content) {
      const path = part.type === 'text' ? HEADER.exec(part.text)?.[1] : undefined;
      if (path !== undefined && part.type === 'text') delivered.set(path, byteSize(part.text));
    }
  }
  return delivered;
}

/** One run's attachments, starting from what its context holds. */
export class InstructionDelivery {
  private delivered: Map<string, number>;

  constructor(
    private readonly project: ProjectInstructions,
    context: readonly Message[],
  ) {
    this.delivered = deliveredIn(context);
  }

  /** The run goes on from `messages` (a compaction): only what they hold is delivered. */
  contextReplaced(messages: readonly Message[]): void {
    this.delivered = deliveredIn(messages);
  }

  /** The loop's afterToolCall: a successful file tool's result, with the instructions not delivered yet appended. */
  afterToolCall = async (call: ToolCallOutcome): Promise<AfterToolCallResult> => {
    const path = call.isError ? undefined : filePathOf(call.toolCall.name, call.args);
    const file = path === undefined ? undefined : this.project.relative(path);
    if (file === undefined || file === '') return;
    const found = await this.project.current();
    // Marked before reading, so two calls of one batch under the same folder do not both bring it.
    const due = sourcesCovering(found.nested, file).filter((source) => source.path !== file && !this.delivered.has(source.path));
    if (due.length === 0) return;
    for (const source of due) this.delivered.set(source.path, 0);
    const rootBytes = found.root ? byteSize((await this.project.forPrompt()).root?.text ?? '') : 0;
    const parts: TextContent[] = [];
    for (const source of due) {
      const text = await this.project.read(source.path);
      if (text === null) continue;
      const part = attachedPart(source, text, INSTRUCTIONS_BUDGET_BYTES - rootBytes - this.used());
      this.delivered.set(source.path, byteSize(part.text));
      parts.push(part);
    }
    if (parts.length === 0) return;
    return { content: [...call.result.content, ...parts] };
  };

  private used(): number {
    let total = 0;
    for (const bytes of this.delivered.values()) total += bytes;
    return total;
  }
}

function attachedPart(source: InstructionSource, text: string, room: number): TextContent {
  const header = instructionsHeader(source);
  if (room <= byteSize(header) + 1) {
    return { type: 'text', text: `${header} not attached: instructions may take ${INSTRUCTIONS_BUDGET_BYTES / 1024} KiB in all and that is used up. Read ${source.path} before changing files under ${folderLabel(source.folder)}.` };
  }
  return { type: 'text', text: `${header}\n${fitToBudget(text, room - byteSize(header) - 1, source.path).text}` };
}

function filePathOf(toolName: string, args: unknown): string | undefined {
  if (!(FILE_TOOLS as readonly string[]).includes(toolName)) return undefined;
  if (typeof args !== 'object' || args === null || !('path' in args)) return undefined;
  return typeof args.path === 'string' ? args.path : undefined;
}
