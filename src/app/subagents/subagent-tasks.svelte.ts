// A session's subagent tasks (the `task` tool): their entries in call order, each one's live view (streaming reply
// and tool cards, as the session's own AgentActivity builds them), the pool that runs at most N at once, and a
// conflicted worker's later apply or discard. Every change of an entry is told through `emit` (per message and
// status, never per token). The subfolders: definitions/ (subagent definition files), merge/ (the 3-way merge of a
// worker's fork), testing/ (a fake fork for tests).
import type { AgentTool, AgentToolResult } from '../../agent/types';
import { addUsage } from '../../ai/cost';
import { errorText } from '../../ai/messages';
import type { Message, Model, TaskEntry } from '../../ai/types';
import { emptyUsage } from '../../ai/types';
import type { Workspace } from '../../runtime/workspace/workspace';
import { WRITING_TASK_TRAITS, toolTraits, type ToolTraits } from '../../tools/catalog';
import { AgentActivity } from '../session/agent-activity.svelte';
import type { RunCall } from '../session/run-options';
import type { Settings } from '../settings/settings';
import type { AgentDefinition } from './definitions/agent-definition';
import type { SubagentKind } from './role-prompt';
import type { SubagentOutcome } from './run-one';
import { TaskPool } from './pool';
import type { TaskArguments } from './task-tool';
import type { MergePlan, WorkerForks, WorkspaceFork } from './worker-fork';
import { closeInterruptedTask } from '../../store/sessions/repair-transcript';
import type { SubagentTaskViews, TaskView } from './card-view';

export type { TaskView };

export type SubagentTasksOptions = {
  workspace: Workspace;
  getSettings(): Settings;
  resolveModel(settings: Settings): Model;
  /** The session's call for `model` (provider options, compaction settings); its prompt and tools are not used. */
  callFor(settings: Settings, model: Model): Promise<RunCall>;
  /** The workspace's system prompt for these tools (as the session builds its own). */
  systemPrompt(tools: AgentTool[], settings: Settings): Promise<string>;
  /** The coding tools over a workspace (default: createCodingTools); the task tool is never among a subagent's. */
  toolsFor?(workspace: Workspace): AgentTool[];
  definitions?: () => Promise<AgentDefinition[]>;
  /** How workers fork; null or absent: one at a time on the live workspace. */
  forks?: () => WorkerForks | null;
  emit(task: TaskEntry): void;
  scheduleUpdate?: (fn: () => void) => void;
  stored?: TaskEntry[];
};

const EXPLORE_TOOLS = ['read', 'grep', 'find', 'ls', 'todo'];

type Plan = { kind: SubagentKind; tools: string[]; definition?: AgentDefinition; agent: string };
type TaskEngine = typeof import('./task-engine');

export class SubagentTasks implements SubagentTaskViews {
  /** Every task of the session, in call order. */
  entries = $state.raw<TaskEntry[]>([]);
  /** The `task` tool once `prepare` has loaded it (its settings choose whether it is active). */
  tool: AgentTool | null = null;

  private readonly activities = new Map<string, AgentActivity>();
  private readonly kept = new Map<string, WorkspaceFork>();
  private readonly pool: TaskPool;
  private loaded: AgentDefinition[] = [];
  private engine: TaskEngine | null = null;

  constructor(private readonly options: SubagentTasksOptions) {
    this.entries = (options.stored ?? []).map(restored);
    this.pool = new TaskPool(() => options.getSettings().subagents.maxConcurrent);
  }

  /** The tools this adds to the session's: the `task` tool once loaded. */
  get tools(): AgentTool[] {
    return this.tool ? [this.tool] : [];
  }

  /** At a run's start: loads the task tool (a chunk of its own) and reads the definitions it offers (a failure leaves the built-ins only). */
  async prepare(): Promise<void> {
    const engine = (this.engine ??= await import('./task-engine'));
    this.tool ??= engine.createTaskTool(
      {
        definitions: () => this.loaded,
        canFork: () => this.forks() !== null,
        models: () => this.options.getSettings().subagents.models,
        writes: (args) => this.writes(args),
        run: (id, args, signal) => this.run(engine, id, args, signal),
      },
      () => this.options.workspace.workdir,
    );
    try {
      this.loaded = (await this.options.definitions?.()) ?? [];
    } catch {
      this.loaded = [];
    }
  }

  /** The policy's view of a `task` call: one that changes files asks in ask mode and is refused where only looking is allowed. */
  callTraitsOf(name: string, args: unknown): ToolTraits | undefined {
    if (name !== 'task' || !args || typeof args !== 'object') return undefined;
    return this.writes(args as TaskArguments) ? WRITING_TASK_TRAITS : undefined;
  }

  view(toolCallId: string): TaskView | undefined {
    const tasks = this;
    if (!this.entries.some((e) => e.toolCallId === toolCallId)) return undefined;
    const activity = this.activityOf(toolCallId);
    return {
      get entry() {
        return tasks.entries.find((e) => e.toolCallId === toolCallId)!;
      },
      get streaming() {
        return activity.streaming;
      },
      cards: activity.cards,
    };
  }

  /** The card's Apply: a conflicted worker's changes, its side winning the conflicting hunks. */
  async apply(toolCallId: string): Promise<void> {
    await this.applyPending(toolCallId, 'worker');
  }

  /** The card's Discard: a conflicted worker's changes are dropped. */
  async discard(toolCallId: string): Promise<void> {
    const entry = this.entry(toolCallId);
    if (entry?.status !== 'conflict') return;
    await this.release(toolCallId);
    this.update(toolCallId, { status: 'done', outcome: 'discarded', pending: undefined });
  }

  /** The session closed: kept forks are dropped (a conflicted worker's changes stay in its entry). */
  dispose(): void {
    for (const id of [...this.kept.keys()]) void this.release(id);
  }

  private forks(): WorkerForks | null {
    return this.options.forks?.() ?? null;
  }

  private writes(args: TaskArguments): boolean {
    if (args.agent === 'apply') return true;
    const plan = this.plan(args.agent);
    return plan !== null && plan.kind === 'worker';
  }

  private plan(agent: string): Plan | null {
    if (agent === 'explore') return { kind: 'explore', tools: EXPLORE_TOOLS, agent };
    if (agent === 'worker') return { kind: 'worker', tools: [], agent };
    const definition = this.loaded.find((d) => d.name === agent);
    if (!definition) return null;
    const tools = definition.tools.filter((t) => t !== 'task');
    const writing = tools.some((t) => !toolTraits(t).readOnly);
    return { kind: writing ? 'worker' : 'explore', tools, definition, agent };
  }

  private async run(engine: TaskEngine, toolCallId: string, args: TaskArguments, signal?: AbortSignal): Promise<AgentToolResult> {
    if (args.agent === 'apply') return this.applyFromTool(args);
    const settings = this.options.getSettings();
    const plan = this.plan(args.agent.trim());
    if (!plan) {
      const names = ['explore', 'worker', ...this.loaded.map((d) => d.name), 'apply'];
      throw new Error(`There is no agent "${args.agent}". Use one of: ${names.join(', ')}.`);
    }
    if (plan.kind === 'worker' && (settings.approvalMode === 'read-only' || settings.approvalMode === 'plan')) {
      throw new Error(`Only explore tasks run in ${settings.approvalMode} mode: ${args.agent} would change files. Explore, then describe the changes.`);
    }
    const model = this.modelFor(settings, args.model ?? plan.definition?.model, args.model !== undefined);
    this.add({
      type: 'task', toolCallId, agent: plan.agent, description: args.description, prompt: args.prompt,
      provider: model.provider, model: model.id, status: 'queued', queuedAt: Date.now(), messages: [], toolCalls: 0, usage: emptyUsage(),
    });
    let release: () => void;
    try {
      release = await this.pool.acquire(signal);
    } catch {
      return this.finish(engine, toolCallId, { status: 'aborted', endedAt: Date.now() });
    }
    try {
      return await this.runStarted(engine, toolCallId, plan, model, settings, signal ?? new AbortController().signal);
    } catch (error) {
      return this.finish(engine, toolCallId, { status: 'error', error: errorText(error), endedAt: Date.now() });
    } finally {
      release();
    }
  }

  private async runStarted(engine: TaskEngine, toolCallId: string, plan: Plan, model: Model, settings: Settings, signal: AbortSignal): Promise<AgentToolResult> {
    this.update(toolCallId, { status: 'running', startedAt: Date.now() });
    const forks = plan.kind === 'worker' ? this.forks() : null;
    const fork = forks ? await forks.fork() : null;
    const workspace = fork?.workspace ?? this.options.workspace;
    const all = (this.options.toolsFor ?? engine.createCodingTools)(workspace).filter((t) => t.name !== 'task');
    const tools = plan.kind === 'explore' || plan.definition ? all.filter((t) => (plan.kind === 'explore' && !plan.definition ? EXPLORE_TOOLS : plan.tools).includes(t.name)) : all;
    let outcome: SubagentOutcome;
    try {
      const [call, prompt] = await Promise.all([this.options.callFor(settings, model), this.options.systemPrompt(tools, settings)]);
      const entry = this.entry(toolCallId)!;
      outcome = await engine.runSubagent({
        prompt: { role: 'user', content: entry.prompt, timestamp: Date.now() },
        call: { ...call, systemPrompt: engine.subagentSystemPrompt(prompt, plan.kind, fork !== null, plan.definition), tools, maxOutputTokens: call.streamOptions.maxTokens },
        turnCap: settings.subagents.turnCap,
        check: engine.subagentToolCheck(workspace, () => this.options.getSettings()),
        activity: this.activityOf(toolCallId),
        onMessage: (message, compactions, summaries) => this.messageEnded(toolCallId, message, compactions, summaries),
        signal,
      });
    } catch (error) {
      await fork?.dispose();
      throw error;
    }
    const ended = { result: outcome.reply, endedAt: Date.now() };
    if (outcome.kind !== 'done') {
      await fork?.dispose();
      return this.finish(engine, toolCallId, outcome.kind === 'error' ? { ...ended, status: 'error', error: outcome.error } : { ...ended, status: 'aborted' });
    }
    const note = outcome.hitCap ? `The subagent reached its turn cap (${settings.subagents.turnCap} model calls) and was stopped; this is what it had.` : undefined;
    if (plan.kind === 'explore') return this.finish(engine, toolCallId, { ...ended, status: 'done' }, note);
    if (!fork || !forks) return this.finish(engine, toolCallId, { ...ended, status: 'done', outcome: 'live', filesChanged: await this.liveChanges(toolCallId) }, note);
    const merged = await forks.merge.mergeInto(this.options.workspace, await fork.changes());
    if (merged.conflicts.length > 0) {
      this.kept.set(toolCallId, fork);
      return this.finish(engine, toolCallId, { ...ended, status: 'conflict', conflicts: merged.conflicts, pending: merged.pending, filesChanged: merged.filesChanged }, note);
    }
    await fork.dispose();
    return this.finish(engine, toolCallId, { ...ended, status: 'done', outcome: 'merged', filesChanged: merged.filesChanged }, note);
  }

  private async applyFromTool(args: TaskArguments): Promise<AgentToolResult> {
    const id = args.task_id?.trim() ?? '';
    const entry = this.entry(id);
    if (!entry) throw new Error(`There is no task "${id}". Give task_id as the id of the earlier task call whose changes to apply.`);
    if (entry.status !== 'conflict' || !entry.pending) throw new Error(`Task "${id}" has no changes waiting to be applied (it is ${entry.outcome ?? entry.status}).`);
    const resolution = args.resolution ?? 'worker';
    const plan = await this.applyPending(id, resolution);
    const files = plan?.filesChanged ?? [];
    return { content: [{ type: 'text', text: `Applied task "${id}" (${entry.description}) with the ${resolution} side winning conflicts: ${files.join(', ') || 'no files'}.` }] };
  }

  private async applyPending(toolCallId: string, resolution: 'worker' | 'live'): Promise<MergePlan | undefined> {
    const entry = this.entry(toolCallId);
    if (entry?.status !== 'conflict' || !entry.pending) return undefined;
    const forks = this.forks();
    if (!forks) throw new Error('This workspace cannot merge a worker\'s changes.');
    const plan = await forks.merge.applyPending(this.options.workspace, entry.pending, resolution);
    await this.release(toolCallId);
    this.update(toolCallId, { status: 'done', outcome: 'applied', pending: undefined, filesChanged: plan.filesChanged });
    return plan;
  }

  private modelFor(settings: Settings, id: string | undefined, named: boolean): Model {
    const own = this.options.resolveModel(settings);
    if (id === undefined || id === own.id) return own;
    const allowed = settings.subagents.models;
    if (!allowed.includes(id)) {
      if (!named) return own; // a definition's model the person did not allow: the session's model instead
      throw new Error(`Model "${id}" is not one the person allowed for subagents. ${allowed.length > 0 ? `Use one of: ${allowed.join(', ')}, or` : 'Leave model out to'} use yours (${own.id}).`);
    }
    return this.options.resolveModel({ ...settings, modelId: id });
  }

  private async liveChanges(toolCallId: string): Promise<string[]> {
    const entry = this.entry(toolCallId);
    const paths = new Set<string>();
    for (const m of entry?.messages ?? []) {
      if (m.role !== 'assistant') continue;
      for (const c of m.content) if (c.type === 'toolCall' && toolTraits(c.name).pathScoped && toolTraits(c.name).mutating && typeof c.arguments.path === 'string') paths.add(c.arguments.path);
    }
    return [...paths];
  }

  private messageEnded(toolCallId: string, message: Message, compactions: TaskEntry['compactions'], summaries: TaskEntry['usage']): void {
    const entry = this.entry(toolCallId);
    if (!entry) return;
    const messages = [...entry.messages, message];
    const usage = messages.reduce((total, m) => (m.role === 'assistant' ? addUsage(total, m.usage) : total), summaries);
    const toolCalls = messages.reduce((n, m) => n + (m.role === 'assistant' ? m.content.filter((c) => c.type === 'toolCall').length : 0), 0);
    this.update(toolCallId, { messages, usage, toolCalls, ...(compactions && compactions.length > 0 ? { compactions: [...compactions] } : {}) });
  }

  private finish(engine: TaskEngine, toolCallId: string, patch: Partial<TaskEntry>, note?: string): AgentToolResult {
    const entry = this.update(toolCallId, patch);
    const text = engine.taskResultText(entry, note);
    if (entry.status === 'error') throw new Error(text);
    return { content: [{ type: 'text', text }], details: { task: toolCallId, status: entry.status } };
  }

  private add(entry: TaskEntry): void {
    this.entries = [...this.entries.filter((e) => e.toolCallId !== entry.toolCallId), entry];
    this.options.emit(entry);
  }

  private update(toolCallId: string, patch: Partial<TaskEntry>): TaskEntry {
    const updated = { ...this.entry(toolCallId)!, ...patch };
    for (const key of Object.keys(patch) as (keyof TaskEntry)[]) if (patch[key] === undefined) delete updated[key];
    this.entries = this.entries.map((e) => (e.toolCallId === toolCallId ? updated : e));
    this.options.emit(updated);
    return updated;
  }

  private entry(toolCallId: string): TaskEntry | undefined {
    return this.entries.find((e) => e.toolCallId === toolCallId);
  }

  private activityOf(toolCallId: string): AgentActivity {
    let activity = this.activities.get(toolCallId);
    if (!activity) {
      activity = new AgentActivity(() => {}, this.options.scheduleUpdate);
      const stored = this.entry(toolCallId);
      if (stored && stored.messages.length > 0) activity.rebuild(stored.messages);
      this.activities.set(toolCallId, activity);
    }
    return activity;
  }

  private async release(toolCallId: string): Promise<void> {
    const fork = this.kept.get(toolCallId);
    this.kept.delete(toolCallId);
    await fork?.dispose();
  }
}

/** A stored task as this page shows it: one that was queued or running when the page closed is aborted, interrupted. */
function restored(entry: TaskEntry): TaskEntry {
  return closeInterruptedTask(entry, Date.now());
}
