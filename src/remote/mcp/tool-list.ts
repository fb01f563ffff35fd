// A server's tools/list answer made into what the person reviews and the loop can call: each tool checked for
// shape, named for the registry, its description cut for the model, its schema compiled (or the tool marked
// unavailable with the reason). At most MAX_TOOLS are taken; a longer list is cut and the cut is said.
import { compileInputSchema, type CompiledSchema } from './input-schema';
import { registryToolName } from './tool-names';
import type { McpToolInfo } from './types';

export const MAX_TOOLS = 500;
/** A description longer than this (in characters) is cut for the model; the person sees it whole. */
export const MAX_MODEL_DESCRIPTION = 2048;
// A server's own name for a tool is what tools/call sends back; one this long is not a name.
const MAX_SERVER_TOOL_NAME = 256;

export type ListedTool = { info: McpToolInfo; schema?: CompiledSchema };
export type ToolListing = { tools: ListedTool[]; note?: string };

/** The tools of `listed` (the tools arrays of every page, in order) for server `serverName`. */
export function buildToolListing(serverName: string, listed: unknown[], more: boolean): ToolListing {
  const taken = new Set<string>();
  const tools: ListedTool[] = [];
  const seenServerNames = new Set<string>();
  let skipped = 0;
  for (const raw of listed) {
    if (tools.length === MAX_TOOLS) break;
    const tool = readTool(raw);
    if (!tool || seenServerNames.has(tool.name)) {
      skipped++;
      continue;
    }
    seenServerNames.add(tool.name);
    tools.push(listedTool(serverName, tool, taken));
  }
  const notes: string[] = [];
  if (listed.length - skipped > MAX_TOOLS || more) notes.push(`the server lists more than ${MAX_TOOLS} tools; Conch offers the first ${MAX_TOOLS}`);
  if (skipped > 0) notes.push(`${skipped} listed tool${skipped === 1 ? ' was' : 's were'} left out (no usable name, or a name listed twice)`);
  return notes.length > 0 ? { tools, note: notes.join('; ') } : { tools };
}

type RawTool = { name: string; title?: string; description: string; inputSchema: unknown; readOnlyHint: boolean };

function readTool(raw: unknown): RawTool | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const t = raw as Record<string, unknown>;
  if (typeof t.name !== 'string' || t.name.length === 0 || t.name.length > MAX_SERVER_TOOL_NAME) return undefined;
  const annotations = typeof t.annotations === 'object' && t.annotations !== null ? (t.annotations as Record<string, unknown>) : {};
  const title = typeof t.title === 'string' ? t.title : typeof annotations.title === 'string' ? annotations.title : undefined;
  return {
    name: t.name,
    title: title?.slice(0, 200),
    description: typeof t.description === 'string' ? t.description : '',
    inputSchema: t.inputSchema,
    readOnlyHint: annotations.readOnlyHint === true,
  };
}

function listedTool(serverName: string, tool: RawTool, taken: Set<string>): ListedTool {
  const cut = tool.description.length > MAX_MODEL_DESCRIPTION;
  const info: McpToolInfo = {
    name: registryToolName(serverName, tool.name, taken),
    serverName: tool.name,
    ...(tool.title === undefined ? {} : { title: tool.title }),
    description: tool.description,
    modelDescription: cut ? `${tool.description.slice(0, MAX_MODEL_DESCRIPTION)}… [description cut at 2 KB]` : tool.description,
    cut,
    readOnlyHint: tool.readOnlyHint,
  };
  const compiled = compileInputSchema(tool.inputSchema);
  if (!compiled.ok) return { info: { ...info, unavailable: compiled.reason } };
  return { info, schema: compiled.schema };
}
