// Nested instructions brought to the model where they apply: the first read, edit or write of a file under a folder
// with its own AGENTS.md gets that file's text appended to its tool result, the nearest folder first. What counts as
// delivered is what the model's context holds: it is read from the context a run starts from, and read again when a
// compaction replaces it, so instructions summarised away are attached again at the next file under their folder; a
// file changed since it was attached is attached again too, as it is now.
import type { AfterToolCallResult, AgentToolResult } from '../../agent/types';
import type { Message, TextContent, ToolCall } from '../../ai/types';
import type { CodingToolName } from '../../tools/catalog';
import { byteSize, CUT_NOTE_START, fitToBudget, INSTRUCTIONS_BUDGET_BYTES } from './budget';
import { folderLabel, sourcesCovering, type InstructionSource } from './instruction-files';
import type { ProjectInstructions } from './project-instructions';

/** The tools whose file brings its folders' instructions. */
const FILE_TOOLS: readonly CodingToolName[] = ['read', 'edit', 'write'];

const HEADER = /^Instructions for .+? \(from (.+?)\):/;

type ToolCallOutcome = { toolCall: ToolCall; args: unknown; result: AgentToolResult; isError: boolean };

/** The attached part's opening line, which is also how a context is seen to hold it. */
export function instructionsHeader(source: InstructionSource): string {
  return `Instructions for ${folderLabel(source.folder)} (from ${source.path}):`;
}

/** The instruction files `messages` already hold, attached to tool results: each one's latest attached text. */
export function deliveredIn(messages: readonly Message[]): Map<string, string> {
  const delivered = new Map<string, string>();
  for (const message of messages) {
    if (message.role !== 'toolResult') continue;
    for (const part of message.content) {
      const path = part.type === 'text' ? HEADER.exec(part.text)?.[1] : undefined;
      if (path !== undefined && part.type === 'text') delivered.set(path, part.text);
    }
  }
  return delivered;
}

/** One run's attachments, starting from what its context holds. */
export class InstructionDelivery {
  private delivered: Map<string, string>;
  private turn: Promise<void> = Promise.resolve();

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
  afterToolCall = (call: ToolCallOutcome): Promise<AfterToolCallResult> => {
    // One call at a time, so two calls of one batch under the same folder do not both bring its instructions.
    const attached = this.turn.then(() => this.attach(call));
    this.turn = attached.then(
      () => undefined,
      () => undefined,
    );
    return attached;
  };

  private async attach(call: ToolCallOutcome): Promise<AfterToolCallResult> {
    const path = call.isError ? undefined : filePathOf(call.toolCall.name, call.args);
    const file = path === undefined ? undefined : this.project.relative(path);
    if (file === undefined || file === '') return;
    const found = await this.project.current();
    const covering = sourcesCovering(found.nested, file).filter((source) => source.path !== file);
    const due: { source: InstructionSource; text: string }[] = [];
    for (const source of covering) {
      const text = await this.project.read(source.path);
      const held = this.delivered.get(source.path);
      if (text !== null && (held === undefined || !holdsCurrent(held, source, text))) due.push({ source, text });
    }
    if (due.length === 0) return;
    const rootBytes = found.root ? byteSize((await this.project.forPrompt()).root?.text ?? '') : 0;
    const parts = due.map(({ source, text }) => {
      const part = attachedPart(source, text, INSTRUCTIONS_BUDGET_BYTES - rootBytes - this.used(source.path));
      this.delivered.set(source.path, part.text);
      return part;
    });
    return { content: [...call.result.content, ...parts] };
  }

  /** The bytes the attached instructions take in the context, leaving out `except`'s (about to be replaced). */
  private used(except: string): number {
    let total = 0;
    for (const [path, text] of this.delivered) if (path !== except) total += byteSize(text);
    return total;
  }
}

/** True when an attached part still says what `content` says (in full, or up to where the budget cut it). */
function holdsCurrent(attached: string, source: InstructionSource, content: string): boolean {
  const opening = `${instructionsHeader(source)}\n`;
  if (!attached.startsWith(opening)) return true; // "not attached": nothing there to bring up to date
  const body = attached.slice(opening.length);
  const cut = body.startsWith(CUT_NOTE_START) ? 0 : body.lastIndexOf(`\n${CUT_NOTE_START}`);
  return cut < 0 ? body === content : content.startsWith(body.slice(0, cut));
}

function attachedPart(source: InstructionSource, text: string, room: number): TextContent {
  const header = instructionsHeader(source);
  if (room <= byteSize(header) + 1) {
    const why = `instructions may take ${INSTRUCTIONS_BUDGET_BYTES / 1024} KiB in all and that is used up`;
    return { type: 'text', text: `${header} not attached: ${why}. Read ${source.path} before changing files under ${folderLabel(source.folder)}.` };
  }
  return { type: 'text', text: `${header}\n${fitToBudget(text, room - byteSize(header) - 1, source.path).text}` };
}

function filePathOf(toolName: string, args: unknown): string | undefined {
  if (!(FILE_TOOLS as readonly string[]).includes(toolName)) return undefined;
  if (typeof args !== 'object' || args === null || !('path' in args)) return undefined;
  return typeof args.path === 'string' ? args.path : undefined;
}
