// A live connection to one MCP server, the one owner of its session: it connects, lists tools and prompts, runs
// calls, and keeps going when the server does not. The life of a call: the session is (re)opened if it had failed;
// the call carries a progress token of Conch's so its progress reaches its card and its response stream can be ended
// when the call is over (guarded-fetch.ts); an expired session (404) is re-initialised once and the call retried; a
// slow server gets the tool timeout; the answer is mapped (call-result.ts), and an isError answer is thrown.
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { AgentTool, AgentToolResult } from '../../agent/types';
import { mcpAgentTool } from './agent-tool';
import { mapCallResult, type CallToolAnswer } from './call-result';
import { failureKind, failureText, unreachableReason, type FailureKind } from './failures';
import { GuardedFetch } from './guarded-fetch';
import { promptInfos, promptText } from './prompt-list';
import { openSession, type Session } from './session';
import { buildToolListing, type ListedTool } from './tool-list';
import type { McpConnection, McpConnectOptions, McpPromptInfo, McpServerConfig, McpServerState, McpToolInfo } from './types';

export const DEFAULT_TOOL_TIMEOUT_MS = 120_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;
// A server that hands out cursors forever is stopped here.
const MAX_LIST_PAGES = 50;

type Progress = (partial: AgentToolResult) => void;

export class McpClientConnection implements McpConnection {
  state: McpServerState = { state: 'connecting' };
  private session: Session | undefined;
  private opening: Promise<void> | undefined;
  private listed: ListedTool[] = [];
  private offered: AgentTool[] = [];
  private listedPrompts: McpPromptInfo[] = [];
  private readonly listeners = new Set<() => void>();
  private readonly progress = new Map<string, Progress>();
  private readonly guard: GuardedFetch;
  private readonly timeoutMs: number;
  private nextToken = 0;
  private closed = false;

  constructor(readonly config: McpServerConfig, private readonly options: McpConnectOptions & { authProvider?: OAuthClientProvider }) {
    this.guard = new GuardedFetch(options.fetch, { maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES });
    this.timeoutMs = options.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
  }

  tools(): McpToolInfo[] {
    return this.listed.map((tool) => tool.info);
  }

  agentTools(): AgentTool[] {
    return this.offered;
  }

  prompts(): McpPromptInfo[] {
    return this.listedPrompts;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Opens the session and lists tools and prompts; the outcome is in `state` (it never throws). */
  open(signal?: AbortSignal): Promise<void> {
    this.opening ??= this.openOnce(signal).finally(() => (this.opening = undefined));
    return this.opening;
  }

  async getPrompt(name: string, args: Record<string, string>): Promise<string> {
    const session = await this.usableSession(`the prompt ${name}`);
    const answer = await this.withExpiredRetry(session, (s) =>
      s.client.request({ method: 'prompts/get', params: { name, arguments: args } }, ResultSchema, { timeout: this.timeoutMs }));
    return promptText(answer);
  }

  async close(): Promise<void> {
    this.closed = true;
    const session = this.session;
    this.session = undefined;
    await session?.client.close().catch(() => undefined);
  }

  /** Runs `tool` with validated `args`; throws (an error result for the loop) on isError and every failure. */
  async call(tool: McpToolInfo, args: unknown, signal?: AbortSignal, onUpdate?: Progress): Promise<AgentToolResult> {
    const session = await this.usableSession(tool.name);
    const answer = (await this.withExpiredRetry(session, (s) => this.callOnce(s, tool, args, signal, onUpdate)).catch((error: unknown) => {
      throw new Error(this.callFailure(tool, signal?.aborted ? 'aborted' : kindOf(error), error));
    })) as CallToolAnswer;
    const spill = this.options.spill;
    const mapped = await mapCallResult(answer, spill ? (text) => spill(tool.name, text) : undefined);
    const details = { server: this.config.name, tool: tool.serverName, isError: answer.isError === true, cut: mapped.cut, fullOutputPath: mapped.fullOutputPath };
    if (answer.isError === true) throw new Error(mapped.text);
    return { content: mapped.content, details };
  }

  private async callOnce(session: Session, tool: McpToolInfo, args: unknown, signal?: AbortSignal, onUpdate?: Progress) {
    const token = `conch-${++this.nextToken}`;
    const done = new AbortController();
    const untrack = this.guard.track(token, done.signal);
    if (onUpdate) this.progress.set(token, onUpdate);
    try {
      return await session.client.request(
        { method: 'tools/call', params: { name: tool.serverName, arguments: (args ?? {}) as Record<string, unknown>, _meta: { progressToken: token } } },
        ResultSchema,
        { signal, timeout: this.timeoutMs },
      );
    } finally {
      this.progress.delete(token);
      untrack();
      done.abort();
    }
  }

  private async openOnce(signal?: AbortSignal): Promise<void> {
    this.setState({ state: 'connecting' });
    try {
      const session = await openSession(this.config, {
        fetch: this.guard.fetch, authProvider: this.options.authProvider, timeoutMs: this.timeoutMs, signal: signal ?? this.options.signal,
      }, {
        onProgress: (token, progress) => this.reportProgress(String(token), progress),
        onToolsChanged: () => void this.refreshTools(),
        onPromptsChanged: () => void this.refreshPrompts(),
      });
      if (this.closed) return void (await session.client.close().catch(() => undefined));
      await this.session?.client.close().catch(() => undefined);
      this.session = session;
      await this.refreshTools();
      await this.refreshPrompts();
    } catch (error) {
      this.session = undefined;
      await this.fail(error);
    }
  }

  private async fail(error: unknown): Promise<void> {
    const kind = kindOf(error);
    if (kind === 'needs-auth') return this.setState({ state: 'needs-auth' });
    const reason = kind === 'unreachable' ? await unreachableReason(this.options.fetch, this.config.url) : failureText(error);
    this.setState({ state: 'failed', reason });
  }

  private async refreshTools(): Promise<void> {
    const session = this.session;
    if (!session) return;
    try {
      const { items, more } = await this.listAll(session, 'tools/list', 'tools');
      const listing = buildToolListing(this.config.name, items, more);
      this.listed = listing.tools;
      this.offered = listing.tools.filter((t) => t.schema).map((t) => mcpAgentTool(t.info, t.schema!, this));
      this.setState({ state: 'connected', tools: this.listed.length, ...(listing.note ? { note: listing.note } : {}) });
    } catch (error) {
      await this.fail(error);
    }
  }

  private async refreshPrompts(): Promise<void> {
    const session = this.session;
    const capabilities = session?.client.getServerCapabilities();
    if (!session || !capabilities?.prompts) return;
    try {
      const { items } = await this.listAll(session, 'prompts/list', 'prompts');
      this.listedPrompts = promptInfos(items);
      this.emit();
    } catch {
      // A server's prompts are extras: its tools stay usable without them.
      this.listedPrompts = [];
    }
  }

  private async listAll(session: Session, method: 'tools/list' | 'prompts/list', key: 'tools' | 'prompts') {
    const items: unknown[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      const answer = await session.client.request({ method, params: cursor ? { cursor } : {} }, ResultSchema, { timeout: this.timeoutMs });
      const list = (answer as Record<string, unknown>)[key];
      if (Array.isArray(list)) items.push(...list);
      const next = (answer as { nextCursor?: unknown }).nextCursor;
      if (typeof next !== 'string' || next === '') return { items, more: false };
      if (items.length > 500) return { items, more: true };
      cursor = next;
    }
    return { items, more: true };
  }

  // A failed or closed session is opened again for the call: the server may be back.
  private async usableSession(what: string): Promise<Session> {
    if (this.closed) throw new Error(`${what}: the connection to the MCP server "${this.config.name}" was closed.`);
    if (!this.session || this.state.state === 'failed') await this.open();
    if (this.session && this.state.state === 'connected') return this.session;
    if (this.state.state === 'needs-auth') throw new Error(`${what} could not run: the MCP server "${this.config.name}" needs sign-in. Ask the person to sign in to it in Settings → MCP servers.`);
    const reason = this.state.state === 'failed' ? this.state.reason : 'it is not connected';
    throw new Error(`${what} could not run: the MCP server "${this.config.name}" is not available (${reason}). Go on without its tools, or ask the person to check the server.`);
  }

  private async withExpiredRetry<T>(session: Session, run: (session: Session) => Promise<T>): Promise<T> {
    try {
      return await run(session);
    } catch (error) {
      if (failureKind(error) !== 'session-expired' || session.transport.sessionId === undefined) throw error;
      await this.open();
      if (!this.session) throw error;
      return run(this.session);
    }
  }

  // The SDK rejects an aborted request as it does a timed-out one, so the caller's signal tells them apart.
  private callFailure(tool: McpToolInfo, kind: FailureKind, error: unknown): string {
    const server = `the MCP server "${this.config.name}"`;
    switch (kind) {
      case 'timeout':
        return `${tool.name} did not answer within ${duration(this.timeoutMs)} (the tool timeout), so the call was cancelled. ` +
          `${server} may be slow or stuck: try again with a smaller request, or go on without this tool.`;
      case 'aborted':
        return `${tool.name} was stopped before it finished.`;
      case 'unreachable':
        void this.fail(error);
        return `${tool.name} could not run: ${server} does not answer (${failureText(error)}). Its tools fail until it is back; go on without them.`;
      case 'needs-auth':
        this.setState({ state: 'needs-auth' });
        return `${tool.name} could not run: ${server} needs sign-in. Ask the person to sign in to it in Settings → MCP servers.`;
      case 'session-expired':
      case 'other':
        return `${tool.name} failed: ${server} answered with an error: ${failureText(error)}`;
    }
  }

  private reportProgress(token: string, p: { progress: number; total?: number; message?: string }): void {
    const onUpdate = this.progress.get(token);
    if (!onUpdate) return;
    const amount = p.total ? `${p.progress}/${p.total}` : `${p.progress}`;
    const text = `${(p.message ?? 'Working').slice(0, 500)} (${amount})`;
    onUpdate({ content: [{ type: 'text', text }], details: { progress: p.progress, total: p.total } });
  }

  private setState(state: McpServerState): void {
    this.state = state;
    this.emit();
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}

// With an auth provider the transports throw the SDK's UnauthorizedError, whose class name a minified build loses.
function kindOf(error: unknown): FailureKind {
  return error instanceof UnauthorizedError ? 'needs-auth' : failureKind(error);
}

function duration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`;
}
