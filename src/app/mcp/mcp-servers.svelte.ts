// The page's MCP servers: one connection per configured server, owned here (started with the page for those set to
// connect on start, or when the person saves one), its state for Settings, the tool review the person answers
// before a server's tools are offered, and the tools each run is given. A session asks this for its MCP tools before every
// model call, so a tool list changed by the server (tools/list_changed) applies from the next turn on.
import type { AgentTool } from '../../agent/types';
import { errorText } from '../../ai/messages';
import type { McpConnection, McpConnectOptions, McpServerConfig, McpServerState, McpToolInfo } from '../../remote/mcp/types';
import { activeMcpToolNames, type McpToolTraits } from '../policy/policy';
import type { Settings } from '../settings/settings';
import { connectMcpServer } from '../../remote/mcp/on-demand';
import { descriptionFingerprint, reviewKey } from './mcp-settings';
import { mcpPromptCommands, type PromptCommand } from './prompt-commands';

/** One server as Settings shows it. */
export type McpServerView = {
  config: McpServerConfig;
  state: McpServerState;
  tools: McpToolInfo[];
  /** The person rejected its tools in this page: none are offered until they review them again. */
  rejected: boolean;
  /** Why the last sign-in did not finish (a blocked popup, a refused answer), for the person to try again. */
  signInProblem?: string;
  /** A sign-in is under way in its popup. */
  signingIn?: boolean;
};

/** A server's tool list waiting for the person to accept it before the tools are offered. */
export type McpReview = {
  serverId: string;
  serverName: string;
  tools: McpToolInfo[];
  /** Registry names of the tools new or changed since the last accepted list. */
  changed: string[];
};

/** The MCP part of the settings, which this owns and stores. */
export type McpSettings = Pick<Settings, 'mcpServers' | 'mcpReviewed' | 'mcpActiveTools' | 'mcpOAuth'>;

type ConnectMcpServer = typeof connectMcpServer;

export type McpServersOptions = {
  settings(): Settings;
  /** Applies and stores a change to the MCP settings. */
  store(change: Partial<McpSettings>): Promise<void>;
  connect?: ConnectMcpServer;
  connectOptions?: Omit<McpConnectOptions, 'signal'>;
  /** The OAuth sign-in for a server that needs it (mcp-signin.ts), called in the click; the server is connected again after it. */
  signIn?(config: McpServerConfig): Promise<void>;
  /** Forgets a removed server's sign-in (revoking its tokens). */
  forget?(config: McpServerConfig): Promise<void>;
};

export class McpServers {
  servers = $state.raw<McpServerView[]>([]);

  private readonly options: McpServersOptions;
  private readonly connections = new Map<string, { connection: McpConnection; stop: () => void }>();
  /** Each server's latest connect attempt: an older one that settles late is closed, not used. */
  private readonly attempts = new Map<string, AbortController>();
  private readonly rejected = new Set<string>();
  /** Each server's latest sign-in: an earlier one that settles late says nothing. */
  private readonly signIns = new Map<string, Promise<void>>();

  constructor(options: McpServersOptions) {
    this.options = options;
  }

  /** Connects the servers set to connect on start (with the page, once settings are loaded). */
  start(): void {
    this.servers = this.options.settings().mcpServers.map((config) => this.viewOf(config, { state: 'failed', reason: 'Not connected.' }));
    for (const config of this.options.settings().mcpServers) {
      if (config.connectOnStart) void this.connect(config);
      else this.setView(config.id, { state: { state: 'failed', reason: 'Not connected (connect on start is off). Save it to connect.' } });
    }
  }

  /** Adds or changes a server, stores it and connects to it. */
  async save(config: McpServerConfig): Promise<void> {
    const list = this.options.settings().mcpServers;
    const next = list.some((s) => s.id === config.id) ? list.map((s) => (s.id === config.id ? config : s)) : [...list, config];
    await this.options.store({ mcpServers: next });
    this.rejected.delete(config.id);
    await this.connect(config);
  }

  /** Disconnects a server and forgets it, with its accepted descriptions and switched-on tools. */
  async remove(id: string): Promise<void> {
    const view = this.servers.find((s) => s.config.id === id);
    const config = this.configOf(id);
    this.disconnect(id);
    this.servers = this.servers.filter((s) => s.config.id !== id);
    const settings = this.options.settings();
    const names = new Set(view?.tools.map((t) => t.name) ?? []);
    await this.options.store({
      mcpServers: settings.mcpServers.filter((s) => s.id !== id),
      mcpReviewed: Object.fromEntries(Object.entries(settings.mcpReviewed).filter(([key]) => !key.startsWith(`${id}/`))),
      mcpActiveTools: settings.mcpActiveTools.filter((name) => !names.has(name)),
    });
    if (config) await this.options.forget?.(config);
  }

  /** The "Sign in" button of a server that needs it. */
  async signIn(id: string): Promise<void> {
    const config = this.configOf(id);
    if (!config) return;
    const attempt = Promise.resolve(this.options.signIn?.(config));
    this.signIns.set(id, attempt);
    this.setView(id, { signingIn: true, signInProblem: undefined });
    try {
      await attempt;
    } catch (error) {
      // A sign-in started again since (a second click) gets the say.
      if (this.signIns.get(id) === attempt) this.setView(id, { signingIn: false, signInProblem: errorText(error) });
      return;
    }
    if (this.signIns.get(id) !== attempt) return;
    await this.connect(config);
  }

  /** The first tool list waiting for review (a server connected for the first time, or a description changed). */
  get review(): McpReview | null {
    const reviewed = this.options.settings().mcpReviewed;
    for (const view of this.servers) {
      if (view.state.state !== 'connected' || view.rejected) continue;
      const changed = view.tools.filter((t) => reviewed[reviewKey(view.config.id, t.name)] !== descriptionFingerprint(t.description)).map((t) => t.name);
      if (changed.length > 0) return { serverId: view.config.id, serverName: view.config.name, tools: view.tools, changed };
    }
    return null;
  }

  /** The person accepted a server's tool list: remembered, and its new tools switched on. */
  async accept(serverId: string): Promise<void> {
    const view = this.servers.find((s) => s.config.id === serverId);
    if (!view) return;
    const settings = this.options.settings();
    const firstSeen = view.tools.filter((t) => settings.mcpReviewed[reviewKey(serverId, t.name)] === undefined).map((t) => t.name);
    const mcpReviewed = { ...settings.mcpReviewed };
    for (const t of view.tools) mcpReviewed[reviewKey(serverId, t.name)] = descriptionFingerprint(t.description);
    await this.options.store({ mcpReviewed, mcpActiveTools: [...new Set([...settings.mcpActiveTools, ...firstSeen])] });
  }

  /** The person rejected a server's tool list: none of its tools are offered in this page. */
  reject(serverId: string): void {
    this.rejected.add(serverId);
    this.setView(serverId, {});
  }

  /** Switches one MCP tool on or off (like the built-ins in Settings). */
  async setToolActive(name: string, on: boolean): Promise<void> {
    const active = this.options.settings().mcpActiveTools;
    await this.options.store({ mcpActiveTools: on ? [...new Set([...active, name])] : active.filter((n) => n !== name) });
  }

  /**
   * The MCP tools a run is given under `settings`: of connected servers whose list the person accepted, usable,
   * switched on, reviewed as they are now, and in read-only mode only the read-only-hinted ones. The approval mode is
   * the run's; what is reviewed and switched on is as stored now (a list accepted mid-run applies at the next turn).
   */
  activeTools(runSettings: Settings): AgentTool[] {
    const { mcpReviewed, mcpActiveTools } = this.options.settings();
    const settings = { approvalMode: runSettings.approvalMode, mcpReviewed, mcpActiveTools };
    const out: AgentTool[] = [];
    for (const view of this.servers) {
      const live = this.connections.get(view.config.id);
      if (!live || view.state.state !== 'connected' || view.rejected) continue;
      const tools = live.connection.tools();
      const offered = tools.filter((t) => !t.unavailable && settings.mcpReviewed[reviewKey(view.config.id, t.name)] === descriptionFingerprint(t.description));
      const active = new Set(activeMcpToolNames(offered, settings.mcpActiveTools, settings.approvalMode));
      for (const tool of live.connection.agentTools()) {
        if (active.has(tool.name) && !out.some((t) => t.name === tool.name)) out.push(tool);
      }
    }
    return out;
  }

  /** The policy's view of the MCP tool called `name`, if one of the connected servers has it. */
  toolOf = (name: string): McpToolTraits | undefined => {
    for (const view of this.servers) {
      const tool = view.tools.find((t) => t.name === name);
      if (tool) return { server: view.config.name, readOnlyHint: tool.readOnlyHint };
    }
    return undefined;
  };

  /** The connected servers' prompts as `/mcp:<server>:<prompt>` commands, for the composer's `/` menu. */
  promptCommands(): PromptCommand[] {
    const servers = this.servers.flatMap((view) => {
      const live = this.connections.get(view.config.id);
      return live && view.state.state === 'connected' && !view.rejected ? [{ name: view.config.name, connection: live.connection }] : [];
    });
    return mcpPromptCommands(servers);
  }

  /** Closes every connection (the page is going away). */
  dispose(): void {
    for (const id of [...this.connections.keys()]) this.disconnect(id);
  }

  private async connect(config: McpServerConfig): Promise<void> {
    this.disconnect(config.id);
    const attempt = new AbortController();
    this.attempts.set(config.id, attempt);
    this.upsertView(config, { state: 'connecting' });
    const connect = this.options.connect ?? connectMcpServer;
    try {
      const connection = await connect(config, { fetch: (...a) => fetch(...a), ...this.options.connectOptions, signal: attempt.signal });
      if (this.attempts.get(config.id) !== attempt) {
        void connection.close().catch(() => undefined);
        return;
      }
      const refresh = () => this.setView(config.id, { state: connection.state, tools: connection.tools() });
      this.connections.set(config.id, { connection, stop: connection.onChange(refresh) });
      refresh();
    } catch (error) {
      if (this.attempts.get(config.id) !== attempt) return;
      this.setView(config.id, { state: { state: 'failed', reason: errorText(error) } });
    }
  }

  private disconnect(id: string): void {
    this.attempts.get(id)?.abort();
    this.attempts.delete(id);
    const live = this.connections.get(id);
    if (!live) return;
    this.connections.delete(id);
    live.stop();
    void live.connection.close().catch(() => undefined);
  }

  private configOf(id: string): McpServerConfig | undefined {
    return this.options.settings().mcpServers.find((s) => s.id === id);
  }

  private viewOf(config: McpServerConfig, state: McpServerState): McpServerView {
    return { config, state, tools: [], rejected: this.rejected.has(config.id) };
  }

  private upsertView(config: McpServerConfig, state: McpServerState): void {
    const view = this.viewOf(config, state);
    this.servers = this.servers.some((s) => s.config.id === config.id)
      ? this.servers.map((s) => (s.config.id === config.id ? view : s))
      : [...this.servers, view];
  }

  private setView(id: string, change: Partial<Pick<McpServerView, 'state' | 'tools' | 'signInProblem' | 'signingIn'>>): void {
    this.servers = this.servers.map((s) => (s.config.id === id ? { ...s, ...change, rejected: this.rejected.has(id) } : s));
  }
}
