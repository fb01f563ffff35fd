// The whole page's state: the sandbox boot, settings, the sessions and which one is open, the theme and panels.
// The app layer's parts, a folder per owner: boot/ (which sandbox runs, the service worker, WebContainer's checks,
// preview servers; browser-boot.ts wires it to this state), library/ (the stored sessions: list, search, open,
// share, transfer), session/ (one open session: its controller, the run of the loop, persistence, snapshots,
// checkpoint restore, tool cards), policy/ (the approval policy and its questions), prompt/ (the system prompt),
// instructions/ (the repo's AGENTS.md files: in the prompt, and attached to the first tool result under their folder),
// workspace/ (import, export, the Files tab), repos/ (repos where they live: import from GitHub or GitLab, pull and
// merge requests, git push from the shell, a local folder), settings/ (settings, model choice, live model lists,
// storage view), conventions/ (skills and command templates), mcp/ (the remote MCP servers: connections, tool review,
// their tools and prompts), link-import/ (a `?session=` link to a shared session file on another host: the confirm
// card's state, the fetch, the import as a file import, and the export's share link), compaction/, terminal/,
// replay/ (a session step by step, its workspace rebuilt per step) and subagents/ (the `task` tool's subagents: their
// definitions, and merge/, a worker's forked tree merged back).
import type { CompactionEntry, Message, StreamFn, TaskEntry } from '../ai/types';
import type { GitPushHost, Runtime } from '../runtime/types';
import type { ShellPush } from './repos/shell-push/shell-push.svelte';
import { Workspace } from '../runtime/workspace/workspace';
import type { SessionStore } from '../store';
import type { SessionLibrary } from './library/library.svelte';
import type { AgentTool } from '../agent/types';
import { FileTreeState } from './workspace/file-tree.svelte';
import { LiveModelList } from './settings/live-models.svelte';
import { Toasts } from './toasts.svelte';
import { OutsideEditNotices } from './repos/local-folder/outside-edit-notices';
import { resolveModel } from './settings/model-choice';
import { hasWebTools } from '../ai/server-tools';
import { PreviewServers } from './boot/preview-servers.svelte';
import { SessionController } from './session/controller.svelte';
import { defaultSettings, parseSettings, withApprovalMode, type Settings } from './settings/settings';
import { customModel } from '../ai/models';
import type { McpServers, McpSettings } from './mcp/mcp-servers.svelte';
import type { ExternalTools } from './session/run-options';
import { errorText } from '../ai/messages';
import { Conventions } from './conventions/conventions.svelte';
import { SubagentDefinitions } from './subagents/definitions/definitions.svelte';

export type PanelTab = 'files' | 'terminal' | 'preview' | 'changes';

type Engine = { streamFn: StreamFn; tools: AgentTool[] };

/** What the top bar shows about the sandbox. */
export type { BootView } from './boot/boot-view';
import type { BootView } from './boot/boot-view';

export type AppStateOptions = {
  /** Persistence of settings; defaults to IndexedDB (createSessionStore). */
  settingsStore?: Pick<SessionStore, 'getSettings' | 'setSettings'>;
  /** Boots the sandbox; the app calls it once, and again on "try WebContainer again". */
  bootRuntime(app: AppState, preference: Settings['runtimePreference']): Promise<Runtime | null>;
  /** The page whose popup and callback page MCP sign-in uses (absent: a server that needs sign-in stays so). */
  mcpSignInWindow?: Window;
};

/** The page's state; created once in main.ts. */
export class AppState {
  settings = $state<Settings>(defaultSettings());
  settingsLoaded = $state(false);
  boot = $state<BootView>({ state: 'booting', kind: null, detail: '', canRetryWebContainer: false });
  /** The page's one sandbox: the agent's tools, the Files tab, the terminal and persistence all work in it. */
  readonly workspace = new Workspace();
  /** The runtime serving the workspace; null while the sandbox boots (or when it could not start). */
  runtime = $state.raw<Runtime | null>(null);
  /** The stored sessions and the open one (loads with the store, outside the initial bundle). */
  library = $state.raw<SessionLibrary | null>(null);
  settingsOpen = $state(false);
  panelTab = $state<PanelTab>('files');
  openedFile = $state<string | null>(null);
  fileTree = $state.raw<FileTreeState | null>(null);
  /** Whether the page currently renders dark (theme setting or the system's). */
  dark = $state(false);
  /** A problem the person should know about that belongs to no session (e.g. settings could not be saved). */
  notice = $state<string | null>(null);
  readonly preview = new PreviewServers();
  /** The provider's own model list, kept between openings of the settings dialog. */
  readonly liveModels = new LiveModelList();
  /** Transient outcomes (imports, exports) for the page's toast area. */
  readonly toasts = new Toasts();
  /** Files changed on disk in a session's folder, for its next run's prompt. */
  readonly outsideEdits = new OutsideEditNotices();
  /** `git push` from the sandbox's shell and its questions to the person; made on the first push. */
  shellPush = $state.raw<ShellPush | null>(null);
  /** The remote MCP servers: their connections, state, tool review and the tools they give each run (null while loading). */
  mcp = $state.raw<McpServers | null>(null);
  /** Skills and command templates: the workspace's and the person's own (Settings → Skills). */
  readonly conventions = new Conventions({
    workspace: this.workspace,
    openStore: async () => (await import('../store')).createPersonalConventionsStore(),
  });
  /** Subagent definitions: the workspace's and the person's own (Settings → Subagents). */
  readonly subagentDefinitions = new SubagentDefinitions({ workspace: this.workspace, openStore: async () => (await import('../store')).createPersonalAgentsStore() });

  private readonly options: AppStateOptions;
  private store: Pick<SessionStore, 'getSettings' | 'setSettings'> | null = null;
  /** The provider adapters and the tools load while the sandbox boots, outside the initial bundle. */
  private engine: Promise<Engine> | null = null;
  /** Opening the last session, started with the page rather than after the sandbox boot. */
  private libraryStart: Promise<void> | null = null;
  /** Settles once the session opened at start is on screen and waits for the sandbox (or could not be opened). */
  private readonly sessionShownAtStart: Promise<void>;
  private markSessionShown: () => void = () => undefined;
  private stopTree: (() => void) | null = null;
  private systemDark = false;

  constructor(options: AppStateOptions) {
    this.options = options;
    this.sessionShownAtStart = new Promise((resolve) => (this.markSessionShown = resolve));
  }

  /**
   * Resolves once the session opened at start is shown and only its workspace waits for the sandbox (or when the
   * library could not start). The browser boot starts the sandbox after it, so that the sandbox's start-up work
   * (workers, WebContainer's frame) does not compete with reading and showing the stored transcript.
   */
  sessionShown(): Promise<void> {
    return this.sessionShownAtStart;
  }

  /** The session shown in the transcript. */
  get current(): SessionController | null {
    return this.library?.current ?? null;
  }

  /**
   * Loads settings, applies the theme, boots the sandbox and opens the last session (or a new one). The session's
   * transcript loads and shows while the sandbox boots; its workspace follows once the sandbox is ready.
   */
  async init(): Promise<void> {
    this.watchSystemTheme();
    this.applyTheme(); // before the first paint, so a dark system never flashes light while settings load
    const settings = this.loadSettings();
    this.libraryStart = this.startLibrary();
    void this.libraryStart.then(this.markSessionShown, this.markSessionShown);
    await settings;
    void this.startMcp();
    const runtime = await this.options.bootRuntime(this, this.settings.runtimePreference);
    if (runtime) await this.useRuntime(runtime);
    else this.sandboxFailed();
    await this.libraryStart;
  }

  private loadEngine(): Promise<Engine> {
    this.engine ??= Promise.all([import('../ai/stream'), import('../tools')]).then(([{ stream }, { createCodingTools }]) => ({
      streamFn: stream,
      tools: createCodingTools(this.workspace),
    }));
    return this.engine;
  }

  /**
   * Makes `runtime` serve the page's workspace (after boot, or when WebContainer takes over: the boot carried the
   * files over, and everyone holding the workspace keeps it).
   */
  async useRuntime(runtime: Runtime): Promise<void> {
    const previous = this.workspace.current;
    this.workspace.attach(runtime);
    this.runtime = runtime;
    this.stopTree?.();
    const tree = new FileTreeState(this.workspace);
    this.stopTree = tree.start();
    this.fileTree = tree;
    this.openedFile = null;
    if (!previous && this.libraryStart) {
      await this.libraryStart;
      // The first boot failed and a retry brought a sandbox: nothing is open yet.
      if (this.library && !this.library.current) await this.library.openLatest();
    }
  }

  /** The library put a session on screen and now waits for the sandbox to put its workspace in. */
  sessionOnScreen(): void {
    this.markSessionShown();
  }

  private sandboxFailed(): void {
    this.workspace.fail(new Error(this.boot.detail || 'The sandbox could not start. Reload the page to try again.'));
  }

  /** Starts an empty session (with an empty workspace) and opens it. */
  async newSession(): Promise<void> {
    this.openedFile = null;
    await this.library?.newSession();
  }

  /** Opens stored session `id`: its transcript, and its workspace in the sandbox. */
  async switchSession(id: string): Promise<void> {
    this.openedFile = null;
    await this.library?.open(id);
  }

  /** A controller for a session's transcript, working in the page's workspace with the person's settings. */
  async createController(init: {
    id: string;
    title: string;
    createdAt: number;
    messages: Message[];
    compactions?: CompactionEntry[];
    tasks?: TaskEntry[];
  }): Promise<SessionController> {
    const engine = await this.loadEngine();
    return new SessionController({
      ...init,
      workspace: this.workspace,
      tools: engine.tools,
      externalTools: this.mcpTools,
      getSettings: () => this.settings,
      resolveModel,
      streamFn: engine.streamFn,
      takeNotices: () => this.outsideEdits.take(init.id),
      skillsForRun: () => this.conventions.forRun(),
      subagentDefinitions: () => this.subagentDefinitions.valid(),
    });
  }

  private async startLibrary(): Promise<void> {
    const { createSessionLibrary } = await import('./library/library.svelte');
    // The engine is needed once the stored transcript is read and checked; loading it now keeps it from delaying
    // the library's own chunks. A failure is reported where a session needs it.
    void this.loadEngine().catch(() => undefined);
    const library = createSessionLibrary(this);
    this.library = library;
    await library.start();
  }

  /** The sandbox's `git push` (Runtime option gitPush): asks the person, then sends through the pull-request push. */
  readonly gitPush: GitPushHost = async (request, signal) => {
    if (!this.shellPush) {
      const { ShellPush } = await import('./repos/shell-push/shell-push.svelte');
      this.shellPush ??= new ShellPush({ library: () => this.library, settings: () => this.settings });
    }
    return this.shellPush.host(request, signal);
  };

  openSettings(): void {
    this.settingsOpen = true;
  }

  closeSettings(): void {
    this.settingsOpen = false;
  }

  /** Applies and stores new settings. */
  async saveSettings(next: Settings): Promise<void> {
    const runtimeChanged = next.runtimePreference !== this.settings.runtimePreference;
    // The MCP servers are saved from their own form as the person changes them; the dialog's copy may be older.
    const { mcpServers, mcpReviewed, mcpActiveTools, mcpOAuth } = this.settings;
    const moved =
      next.approvalMode === this.settings.approvalMode
        ? next
        : withApprovalMode({ ...next, approvalMode: this.settings.approvalMode }, next.approvalMode);
    this.settings = parseSettings({ ...moved, mcpServers, mcpReviewed, mcpActiveTools, mcpOAuth });
    this.settingsOpen = false;
    this.applyTheme();
    await this.persistSettings();
    if (runtimeChanged) {
      this.notice = 'The runtime choice takes effect when you reload the page.';
    }
  }

  /** Changes the approval mode from the top bar (the policy reads it at the next tool call) and stores it. */
  async setApprovalMode(mode: Settings['approvalMode']): Promise<void> {
    this.settings = withApprovalMode(this.settings, mode);
    await this.persistSettings();
  }

  /** The MCP servers load with the settings, outside the initial bundle; a session asks for their tools at each run. */
  private async startMcp(): Promise<void> {
    try {
      const [{ McpServers }, { browserSignInPage, mcpSignInOnDemand }] = await Promise.all([
        import('./mcp/mcp-servers.svelte'),
        import('./mcp/signin-on-demand'),
      ]);
      const win = this.options.mcpSignInWindow;
      const signIn = win && mcpSignInOnDemand({
        ...browserSignInPage(win),
        records: () => this.settings.mcpOAuth,
        storeRecords: (mcpOAuth) => this.storeMcpSettings({ mcpOAuth }),
      });
      this.mcp = new McpServers({ settings: () => this.settings, store: (change) => this.storeMcpSettings(change), ...signIn });
      this.mcp.start();
    } catch {
      // The chunk could not be fetched (offline on a first visit): no MCP servers until the page is reloaded.
    }
  }

  private readonly mcpTools: ExternalTools = {
    activeTools: (settings) => this.mcp?.activeTools(settings) ?? [],
    toolOf: (name) => this.mcp?.toolOf(name),
  };

  private async storeMcpSettings(change: Partial<McpSettings>): Promise<void> {
    this.settings = { ...this.settings, ...change };
    await this.persistSettings();
  }

  /** Plan mode's Start: back to the mode before Plan mode, then `text` ("Go ahead with the plan.") is sent. */
  async startPlan(text: string): Promise<void> {
    const session = this.current;
    if (!session || session.running || this.settings.approvalMode !== 'plan') return;
    const saved = this.setApprovalMode(this.settings.modeBeforePlan);
    session.send(text);
    await saved;
  }

  /** Removes the stored API key. */
  async forgetKey(): Promise<void> {
    this.settings.apiKey = '';
    await this.persistSettings();
  }

  /** The first-visit welcome is done (the person chose to start). */
  async finishWelcome(): Promise<void> {
    this.settings.onboarded = true;
    await this.persistSettings();
  }

  /** Whether the current model has its provider's own web search and fetch (the composer offers the switch). */
  get webToolsAvailable(): boolean {
    const s = this.settings;
    return s.modelId.trim() !== '' && hasWebTools(customModel(s.provider, s.modelId));
  }

  /** Whether the current model accepts images in prompts. */
  get acceptsImages(): boolean {
    const s = this.settings;
    if (!s.modelId.trim()) return false;
    return customModel(s.provider, s.modelId).input.includes('image');
  }

  /**
   * Imports a repository zip into the open session's workspace as its baseline (checked for zip-slip, bombs and
   * size limits first; a single top folder is stripped). Returns how many files were imported; throws a message.
   */
  async importRepoZip(file: Blob): Promise<number> {
    if (!this.library) throw new Error('The sandbox is still starting; try again in a moment.');
    const result = await this.library.transfer.importRepo({ kind: 'zip', name: file instanceof File ? file.name : 'repo.zip', data: new Uint8Array(await file.arrayBuffer()) });
    return result.files;
  }

  /** Puts text into the current session (e.g. a preview error sent to the agent). */
  sendToAgent(text: string): void {
    this.current?.send(text);
  }

  /** Sets the boot view; called by the boot function as the sandbox comes up. */
  setBoot(view: BootView): void {
    this.boot = view;
  }

  async retryWebContainer(): Promise<void> {
    const runtime = await this.options.bootRuntime(this, 'webcontainer');
    if (runtime) await this.useRuntime(runtime);
  }

  private async loadSettings(): Promise<void> {
    try {
      // The store (with its schemas) loads on demand, outside the initial bundle.
      this.store = this.options.settingsStore ?? (await import('../store')).createSessionStore();
      this.settings = parseSettings(await this.store.getSettings());
    } catch {
      // No IndexedDB (private mode in some browsers): settings live for this page only.
      this.store = null;
      this.notice = 'This browser cannot store data for Conch, so settings last only until you close the page.';
    }
    this.settingsLoaded = true;
    this.applyTheme();
  }

  private async persistSettings(): Promise<void> {
    if (!this.store) return;
    try {
      await this.store.setSettings($state.snapshot(this.settings));
    } catch (error) {
      this.notice = `Settings could not be saved: ${errorText(error)}`;
    }
  }

  private watchSystemTheme(): void {
    if (typeof matchMedia !== 'function') return;
    const query = matchMedia('(prefers-color-scheme: dark)');
    this.systemDark = query.matches;
    query.addEventListener('change', (e) => {
      this.systemDark = e.matches;
      this.applyTheme();
    });
  }

  private applyTheme(): void {
    const theme = this.settings.theme;
    this.dark = theme === 'dark' || (theme === 'system' && this.systemDark);
    if (typeof document === 'undefined') return;
    document.documentElement.dataset.theme = this.dark ? 'dark' : 'light';
  }
}
