// The approval policy: the loop's beforeToolCall. It decides whether a tool call runs, is blocked, or waits for
// the person, who answers a question object the UI renders. The sandbox is the isolation boundary, so `auto`
// runs everything; `ask` and protected paths put a person in the loop; the doom-loop guard stops a model that
// keeps repeating a failing call. An MCP server's tools ask in every mode until the person always-allows the tool or
// its server: their annotations come from an untrusted server, so a read-only hint may order a batch (and keep the
// tool in read-only mode) but never grants permission.
import { minimatch } from 'minimatch';
import type { AgentTool, BeforeToolCallResult } from '../../agent/types';
import type { ToolCall } from '../../ai/types';
import { relativeTo, resolvePath } from '../../runtime/paths';
import { READ_ONLY_TOOLS, toolTraits, type ToolTraits } from '../../tools/catalog';
import type { ApprovalMode } from '../settings/settings';

/** Why the person is being asked. */
export type ApprovalReason =
  | { kind: 'ask-mode' }
  | { kind: 'protected-path'; path: string; pattern: string }
  | { kind: 'doom-loop'; repeats: number; lastError: string }
  | { kind: 'mcp-tool'; server: string };

/** A question for the person about one tool call; the UI renders it and answers through the promise. */
export type ApprovalQuestion = {
  id: string;
  toolCallId: string;
  toolName: string;
  args: unknown;
  reason: ApprovalReason;
  /** The MCP server whose tool this is ("Always allow this server" is offered); absent for the coding tools. */
  server?: string;
  /** False when "always allow" would be unsafe to offer (protected paths and doom loops ask every time). */
  canAlwaysAllow: boolean;
};

export type ApprovalAnswer =
  | { decision: 'allow' }
  | { decision: 'always' }
  | { decision: 'always-server' }
  | { decision: 'deny'; reason?: string };

/** What the policy knows of an MCP tool: its server's name and whether the server hinted it is read-only. */
export type McpToolTraits = { server: string; readOnlyHint: boolean };

export type PolicySettings = { approvalMode: ApprovalMode; protectedPaths: string[] };

export type ToolPolicyOptions = {
  /** The workspace folder, or the live Workspace (its folder can change when another runtime takes over). */
  workdir: string | { readonly workdir: string };
  /** Read on every call, so a settings change applies to the next tool call. */
  getSettings(): PolicySettings;
  /** Shows the question and resolves with the person's answer; should reject or settle when `signal` aborts. */
  ask(question: ApprovalQuestion, signal?: AbortSignal): Promise<ApprovalAnswer>;
  /** The MCP tool called `name`, if it is one. */
  mcpToolOf?(name: string): McpToolTraits | undefined;
  /** The traits of one call of a tool whose traits depend on its arguments (a `task` worker writes); undefined: the catalog's. */
  callTraitsOf?(name: string, args: unknown): ToolTraits | undefined;
};

export const DOOM_LOOP_REPEATS = 3;

/**
 * The tool names that are active under `mode`, given the ones the person switched on: read-only and plan mode offer
 * every tool that never changes anything (the catalog's read-only trait: the reading tools and todo), whatever else
 * is switched on. No tool leaves plan mode: only the person does, with Start.
 */
export function activeToolNames(enabled: readonly string[], mode: ApprovalMode): string[] {
  return mode === 'read-only' || mode === 'plan' ? [...READ_ONLY_TOOLS] : [...enabled];
}

/**
 * Why a call that could change something is blocked in a mode that only looks (an MCP tool: unless the server hinted
 * it is read-only); undefined when it may run.
 */
function lookOnlyBlock(name: string, mode: ApprovalMode, mcp: McpToolTraits | undefined, traits: ToolTraits): string | undefined {
  if (mcp ? mcp.readOnlyHint : traits.readOnly) return undefined;
  if (mode === 'read-only') {
    return `The person set Conch to read-only: ${name} is not allowed. Use read, grep, find or ls, or explain what you would change.`;
  }
  if (mode === 'plan') {
    return (
      `Conch is in Plan mode: ${name} is not allowed, and nothing may be changed yet. ` +
      'Investigate with read, grep, find and ls, then end with your plan; the person starts it.'
    );
  }
  return undefined;
}

/**
 * The MCP tools active under `mode`, given the ones the person switched on: read-only mode keeps only those the server
 * hinted are read-only (which still ask before each call), and so does plan mode.
 */
export function activeMcpToolNames(tools: readonly { name: string; readOnlyHint: boolean }[], enabled: readonly string[], mode: ApprovalMode): string[] {
  const on = new Set(enabled);
  return tools.filter((t) => on.has(t.name) && ((mode !== 'read-only' && mode !== 'plan') || t.readOnlyHint)).map((t) => t.name);
}

/** The workspace-relative form of a path the model gave (relative or absolute), for matching globs. */
export function workspaceRelative(path: string, workdir: string): string {
  const absolute = resolvePath(workdir, path.trim() || '.');
  return relativeTo(workdir, absolute) ?? absolute.slice(1);
}

/** The first protected pattern `path` falls under, if any. Patterns without a slash match a name in any folder. */
export function protectedPatternFor(path: string, workdir: string, patterns: readonly string[]): string | undefined {
  const rel = workspaceRelative(path, workdir);
  return patterns.find((pattern) => pattern.trim() !== '' && minimatch(rel, pattern.trim(), { dot: true, matchBase: true }));
}

/** A key that is equal for two calls with the same tool and the same arguments, whatever the key order. */
function callKey(toolName: string, args: unknown): string {
  const stable = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(stable);
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.keys(value).sort().map((k) => [k, stable((value as Record<string, unknown>)[k])]));
    }
    return value;
  };
  return `${toolName}:${JSON.stringify(stable(args))}`;
}

function argPath(args: unknown): string | undefined {
  if (args && typeof args === 'object' && 'path' in args && typeof (args as { path: unknown }).path === 'string') {
    return (args as { path: string }).path;
  }
  return undefined;
}

type CallRecord = { toolCallId: string; key: string; failed: boolean | undefined; error: string };

/** One session's policy: its "always allow" choices and recent-call memory live as long as the session. */
export class ToolPolicy {
  private readonly alwaysAllowed = new Set<string>();
  private readonly alwaysAllowedServers = new Set<string>();
  private readonly history: CallRecord[] = [];
  private nextQuestionId = 1;

  constructor(private readonly options: ToolPolicyOptions) {}

  private get workdir(): string {
    const { workdir } = this.options;
    return typeof workdir === 'string' ? workdir : workdir.workdir;
  }

  /** Tools the person allowed for the rest of this session. */
  get alwaysAllowedTools(): string[] {
    return [...this.alwaysAllowed];
  }

  /** The loop's beforeToolCall hook. */
  beforeToolCall = async (
    call: { toolCall: ToolCall; args: unknown; tool: AgentTool },
    signal?: AbortSignal,
  ): Promise<BeforeToolCallResult> => {
    const name = call.tool.name;
    const { approvalMode, protectedPaths } = this.options.getSettings();
    const key = callKey(name, call.args);
    const record: CallRecord = { toolCallId: call.toolCall.id, key, failed: undefined, error: '' };

    const mcp = this.options.mcpToolOf?.(name);
    const traits = this.options.callTraitsOf?.(name, call.args) ?? toolTraits(name);
    const lookOnly = lookOnlyBlock(name, approvalMode, mcp, traits);
    if (lookOnly) return { block: true, reason: lookOnly };

    const repeats = this.failedRepeatsOf(key);
    const reason = mcp ? this.reasonToAskMcp(name, mcp, repeats) : this.reasonToAsk(name, traits, call.args, approvalMode, protectedPaths, repeats);
    if (reason) {
      const answer = await this.question(call.toolCall, name, call.args, reason, signal, mcp?.server);
      if (answer.decision === 'deny') {
        const why = answer.reason?.trim();
        return {
          block: true,
          reason:
            `The person denied this ${name} call` +
            (why ? `: "${why}"` : '.') +
            ' Do not retry it; adjust your approach or ask them what they want.',
        };
      }
      if (answer.decision === 'always' && (reason.kind === 'ask-mode' || reason.kind === 'mcp-tool')) this.alwaysAllowed.add(name);
      if (answer.decision === 'always-server' && reason.kind === 'mcp-tool') this.alwaysAllowedServers.add(reason.server);
      // Once the person lets a repeated call through, count afresh.
      if (reason.kind === 'doom-loop') this.history.length = 0;
    }

    this.history.push(record);
    if (this.history.length > 20) this.history.shift();
    return undefined;
  };

  /** The loop's afterToolCall hook: remembers which calls failed, for the doom-loop guard. */
  afterToolCall = async (call: { toolCall: ToolCall; isError: boolean; result: { content: { type: string }[] } }): Promise<void> => {
    const record = this.history.find((r) => r.toolCallId === call.toolCall.id);
    if (!record) return;
    record.failed = call.isError;
    if (call.isError) {
      const text = call.result.content.find((c): c is { type: 'text'; text: string } => c.type === 'text');
      record.error = text?.text.slice(0, 500) ?? '';
    }
  };

  private reasonToAsk(
    name: string,
    traits: ToolTraits,
    args: unknown,
    mode: ApprovalMode,
    protectedPaths: string[],
    repeats: { count: number; lastError: string },
  ): ApprovalReason | undefined {
    if (repeats.count >= DOOM_LOOP_REPEATS - 1) {
      return { kind: 'doom-loop', repeats: repeats.count + 1, lastError: repeats.lastError };
    }
    const path = traits.mutating && traits.pathScoped ? argPath(args) : undefined;
    if (path !== undefined) {
      const pattern = protectedPatternFor(path, this.workdir, protectedPaths);
      if (pattern) return { kind: 'protected-path', path, pattern };
    }
    if (mode === 'ask' && traits.asksInAskMode && !this.alwaysAllowed.has(name)) return { kind: 'ask-mode' };
    return undefined;
  }

  private reasonToAskMcp(name: string, mcp: McpToolTraits, repeats: { count: number; lastError: string }): ApprovalReason | undefined {
    if (repeats.count >= DOOM_LOOP_REPEATS - 1) {
      return { kind: 'doom-loop', repeats: repeats.count + 1, lastError: repeats.lastError };
    }
    if (this.alwaysAllowed.has(name) || this.alwaysAllowedServers.has(mcp.server)) return undefined;
    return { kind: 'mcp-tool', server: mcp.server };
  }

  /** How many of the most recent calls were this same call, and failed, in a row. */
  private failedRepeatsOf(key: string): { count: number; lastError: string } {
    let count = 0;
    let lastError = '';
    for (let i = this.history.length - 1; i >= 0; i--) {
      const r = this.history[i];
      if (r.key !== key || r.failed !== true) break;
      if (count === 0) lastError = r.error;
      count++;
    }
    return { count, lastError };
  }

  private async question(
    toolCall: ToolCall,
    toolName: string,
    args: unknown,
    reason: ApprovalReason,
    signal?: AbortSignal,
    server?: string,
  ): Promise<ApprovalAnswer> {
    const question: ApprovalQuestion = {
      id: `approval-${this.nextQuestionId++}`,
      toolCallId: toolCall.id,
      toolName,
      args,
      reason,
      ...(server !== undefined ? { server } : {}),
      canAlwaysAllow: reason.kind === 'ask-mode' || reason.kind === 'mcp-tool',
    };
    if (signal?.aborted) return { decision: 'deny', reason: 'The run was stopped before the person answered.' };
    try {
      return await new Promise<ApprovalAnswer>((resolve, reject) => {
        const onAbort = () => resolve({ decision: 'deny', reason: 'The run was stopped before the person answered.' });
        signal?.addEventListener('abort', onAbort, { once: true });
        this.options.ask(question, signal).then(
          (answer) => {
            signal?.removeEventListener('abort', onAbort);
            resolve(answer);
          },
          (error: unknown) => {
            signal?.removeEventListener('abort', onAbort);
            reject(error);
          },
        );
      });
    } catch {
      // Fail closed: a question that could not be answered never lets the call through.
      return { decision: 'deny', reason: 'The approval could not be shown to the person.' };
    }
  }
}
