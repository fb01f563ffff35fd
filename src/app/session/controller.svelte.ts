// One session: the agent loop, the workspace and its tools, the person's settings, and everything the transcript
// shows while the agent works (prompts on their way to the loop in PromptQueue, approvals in SessionApprovals, tokens
// and cost; the streaming reply, tool cards and the agent's command log in AgentActivity; a run's wiring in agent-run).
// Components render this state and call its methods; persistence subscribes to its events. The transcript holds
// what the loop delivered, in the loop's order (a prompt waiting for the loop to take it is shown as pending).
// The model is sent a view of it: after a compaction, the summary and the messages kept (compaction/).
import type { AgentTool } from '../../agent/types';
import { errorText, titleFromPrompt } from '../../ai/messages';
import type { AssistantMessage, CompactionEntry, ImageContent, Message, Model, StreamFn, UserMessage } from '../../ai/types';
import type { Runtime } from '../../runtime/types';
import { Workspace } from '../../runtime/workspace/workspace';
import { AgentActivity, type ReplyProgress } from './agent-activity.svelte';
import { runAgent } from './agent-run';
import type { AgentCommand } from '../terminal/agent-commands';
import type { PendingApproval } from '../policy/approval-queue.svelte';
import type { ApprovalAnswer } from '../policy/policy';
import { SessionApprovals } from './approvals';
import { PromptQueue, promptMessage } from './prompt-queue.svelte';
import { RunOptions } from './run-options';
import type { SessionControllerOptions, SessionEvent } from './session-options';
import type { Settings } from '../settings/settings';
import type { ToolCardMap } from './tool-cards/tool-card-map.svelte';
import type { ToolCardState } from './tool-cards/tool-cards.svelte';
import { parseCompactCommand } from '../compaction/compact-command';
import { SessionCompaction } from '../compaction/session-compaction.svelte';
import { canContinueFrom, CONTINUE_PROMPT, failedReply, overflowedReply } from './reply-state';
import { sessionTotals, type SessionTotals } from './totals';
import { SessionWebTools } from './web-tools.svelte';
import { SubagentTasks } from '../subagents/subagent-tasks.svelte';
import { workerForksOf } from '../subagents/worker-fork';
import { subagentMerge } from '../subagents/merge-source';

export type { ReplyProgress, SessionControllerOptions, SessionEvent, SessionTotals };
export { CONTINUE_PROMPT, messagesForModel } from './reply-state';

let sessionCounter = 0;
const newSessionId = () => `s-${Date.now().toString(36)}-${(++sessionCounter).toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** The session the person is working in. */
export class SessionController {
  readonly id: string;
  readonly createdAt: number;
  readonly workspace: Workspace;
  title = $state('New session');
  /** Completed messages as the loop delivered them, in order. */
  messages = $state.raw<Message[]>([]);
  running = $state(false);
  /** The composer's text, kept here so it survives switching sessions. */
  draft = $state('');
  /** A problem starting a run (no model, no key), shown above the composer. */
  startError = $state<string | null>(null);
  /** The person stopped the last run: it can Continue. */
  stopped = $state(false);
  /** Compactions, the context meter's count, and the compaction in progress. */
  readonly compaction: SessionCompaction;
  readonly webTools = new SessionWebTools((on) => this.emit({ type: 'web-tools', on }));
  /** Its subagent tasks (the `task` tool). */
  readonly tasks: SubagentTasks;

  private readonly options: SessionControllerOptions;
  private readonly activity: AgentActivity;
  private readonly toolApprovals: SessionApprovals;
  private readonly prompts = new PromptQueue();
  readonly runOptions: RunOptions;
  private readonly listeners = new Set<(event: SessionEvent) => void>();
  private abortController: AbortController | null = null;
  private runPromise: Promise<void> | null = null;

  constructor(options: SessionControllerOptions) {
    this.options = options;
    this.id = options.id ?? newSessionId();
    this.createdAt = options.createdAt ?? Date.now();
    this.workspace = Workspace.of(options.workspace);
    this.activity = new AgentActivity((message) => this.messageEnded(message), options.scheduleUpdate);
    if (options.title) this.title = options.title;
    this.tasks = new SubagentTasks({
      ...options, workspace: this.workspace, stored: options.tasks, definitions: options.subagentDefinitions,
      callFor: (settings, model) => this.runOptions.callFor(settings, model),
      systemPrompt: (tools, settings) => this.runOptions.systemPrompt(tools, settings),
      forks: () => workerForksOf(this.workspace, subagentMerge),
      emit: (task) => this.emit({ type: 'task', task }),
    });
    this.runOptions = new RunOptions({
      workspace: this.workspace,
      tools: options.tools,
      laterTools: () => this.tasks.tools,
      external: options.externalTools,
      streamFn: options.streamFn,
      now: options.now,
      onRetryNotice: (notice) => (this.activity.retryNotice = notice),
      skills: options.skillsForRun,
      webTools: () => this.webTools.on,
    });
    const compacted = (compaction: CompactionEntry) => this.emit({ type: 'compaction', compaction });
    this.compaction = new SessionCompaction(options.compactions ?? [], () => this.messages.length, compacted);
    if (options.messages) this.loadMessages(options.messages);
    this.toolApprovals = new SessionApprovals(this.workspace, () => options.getSettings(), this.activity.cards, options.externalTools?.toolOf, (name, args) => this.tasks.callTraitsOf(name, args));
  }

  /** Hears every message as it joins the transcript (once each) and the end of every run; returns the unsubscribe. */
  subscribe(listener: (event: SessionEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Hears the reply being streamed as it grows (many times a second; keep it cheap); returns the unsubscribe. */
  watchReply(listener: ReplyProgress): () => void {
    return this.activity.watchReply(listener);
  }

  /** The assistant message being streamed, updated at most once per frame. */
  get streaming(): AssistantMessage | null {
    return this.activity.streaming;
  }

  /** "Retrying in N s" while the provider request is being retried. */
  get retryNotice(): string | null {
    return this.activity.retryNotice;
  }

  /** A card per tool call of the transcript and of the run. */
  get cards(): ToolCardMap {
    return this.activity.cards;
  }

  /** Prompts sent that the loop has not taken yet (it starts once the system prompt is built): shown as sent. */
  get pending(): UserMessage[] {
    return this.prompts.pending;
  }

  /** Messages typed while the agent runs, delivered after the current tool batch. */
  get queued(): UserMessage[] {
    return this.prompts.queued;
  }

  /** The transcript as shown: the delivered messages, then prompts on their way to the loop. */
  get transcript(): Message[] {
    return this.pending.length === 0 ? this.messages : [...this.messages, ...this.pending];
  }

  /** Token and cost totals of this session's assistant messages, its compactions' summary calls and its subagent tasks. */
  get totals(): SessionTotals {
    return sessionTotals(this.messages, this.compaction.usage, this.tasks.entries);
  }

  /** Tokens the model's context would take on the next request (the context meter). */
  get contextTokens(): number {
    return this.compaction.contextTokens(this.messages);
  }

  /**
   * The run was stopped, or the page closed while a reply streamed: Continue goes on from there. Not after a provider
   * error, which has Retry instead.
   */
  get canContinue(): boolean {
    return canContinueFrom(this.messages, this.running, this.stopped);
  }

  /** The last message when it is a provider error the person can retry. */
  get failedMessage(): AssistantMessage | null {
    return failedReply(this.messages, this.running);
  }

  /** The failed last reply is a context overflow the automatic compaction could not cure: offer to compact harder. */
  get overflowed(): boolean {
    return overflowedReply(this.messages, this.running);
  }

  /** Questions about tool calls waiting for the person's answer. */
  get approvals(): PendingApproval[] {
    return this.toolApprovals.pending;
  }

  /** The agent's bash commands, for the Terminal's agent view. */
  get agentCommands(): AgentCommand[] {
    return this.activity.commandLog.commands;
  }

  /** Tools the person allowed for the rest of this session. */
  get alwaysAllowedTools(): string[] {
    return this.toolApprovals.policy.alwaysAllowedTools;
  }

  card(toolCallId: string): ToolCardState | undefined {
    return this.cards.get(toolCallId);
  }

  /** Replaces the transcript (restore or import); tool cards are rebuilt from the messages. */
  loadMessages(messages: Message[]): void {
    this.messages = [...messages];
    this.activity.rebuild(messages);
  }

  /**
   * Sends a prompt; while the agent runs it is queued and delivered after the current tool batch. `/compact [focus]`
   * compacts the context instead. `typed`: the command `text` expands (the transcript shows it; the model gets `text`).
   */
  send(text: string, images: ImageContent[] = [], typed?: string): void {
    const trimmed = text.trim();
    if (trimmed === '' && images.length === 0) return;
    const command = images.length === 0 ? parseCompactCommand(trimmed) : null;
    if (command) {
      this.compact(command);
      return;
    }
    const message = typed ? { ...promptMessage(trimmed, images), command: typed } : promptMessage(trimmed, images);
    if (this.running) {
      this.prompts.queue(message);
      return;
    }
    if (this.messages.every((m) => m.role !== 'user')) this.title = titleFromPrompt(typed ?? trimmed) || (trimmed ? 'New session' : 'Image');
    this.start([message]);
  }

  /** Stops the run: the stream is cancelled and every pending tool call gets an aborted result. */
  abort(): void {
    this.abortController?.abort();
  }

  /**
   * Sends the failed request again. The transcript stays append-only: the error stays visible, but the model is
   * not shown it (see isResendable), so the conversation continues from just before it.
   */
  retry(): void {
    if (!this.failedMessage || this.running) return;
    this.start([]);
  }

  /**
   * Goes on after a Stop or an interrupted reply: the model sees the transcript as it is (the partial reply closed as
   * aborted, its tool calls with aborted results). A view that would end with the model's own words gets a short
   * "continue" request, since providers expect the person (or a tool result) to speak last.
   */
  continue(): void {
    if (!this.canContinue) return;
    const view = this.compaction.view(this.messages);
    const last = view.messages[view.messages.length - 1];
    this.start(last?.role === 'assistant' ? [{ role: 'user', content: CONTINUE_PROMPT, timestamp: Date.now() }] : []);
  }

  /**
   * Compacts the context now (`/compact [focus]`, "Compact now"); `harder` keeps less of the recent part and, after a
   * context overflow, sends the failed request again. Messages sent meanwhile are queued and delivered after it;
   * Esc or Stop cancels it and changes nothing.
   */
  compact(options: { focus?: string; harder?: boolean } = {}): void {
    if (this.running) {
      this.compaction.notice = this.compaction.active
        ? 'The context is being compacted already.'
        : 'The agent is working. Compact once it has finished, or stop it first.';
      return;
    }
    const chosen = this.chooseModel();
    if (!chosen) return;
    const { settings, model } = chosen;
    const retryAfter = options.harder === true && this.failedMessage !== null;
    const controller = new AbortController();
    this.begin(controller);
    this.runPromise = this.compaction
      .compact(this.messages, this.runOptions.callFor(settings, model), { ...options, signal: controller.signal })
      .then(
        (outcome) => this.finish(controller, [], outcome.ok && retryAfter && !controller.signal.aborted),
        () => this.finish(controller, [], false),
      );
  }

  /** Counts the system prompt and tool schemas in the context meter before the first run (the workspace is in). */
  async measurePrompt(): Promise<void> {
    const settings = this.options.getSettings();
    const tools = this.runOptions.activeTools(settings);
    try {
      this.compaction.rememberPrompt(await this.runOptions.systemPrompt(tools, settings), tools);
    } catch {
      // The meter then counts the messages only, until the first run measures the prompt.
    }
  }

  /** Removes a queued message before it is delivered. */
  unqueue(index: number): void {
    this.prompts.unqueue(index);
  }

  answerApproval(questionId: string, answer: ApprovalAnswer): void {
    this.toolApprovals.answer(questionId, answer);
  }

  /** Resolves when the current run (if any) has ended. */
  async idle(): Promise<void> {
    while (this.runPromise) await this.runPromise;
  }

  dispose(): void {
    this.abort();
    this.tasks.dispose();
    this.runOptions.dispose();
  }

  private start(prompts: UserMessage[]): void {
    const chosen = this.chooseModel();
    if (!chosen) {
      // No run, so no loop to deliver them: keep what the person typed in the transcript so it is not lost; the
      // next send continues from here.
      for (const p of prompts) this.append(p);
      return;
    }
    const { settings, model } = chosen;
    const controller = new AbortController();
    this.stopped = false;
    this.begin(controller);
    this.prompts.sent(prompts);
    this.runPromise = runAgent({
      prompts,
      call: this.tasks.prepare().then(() => this.runOptions.callFor(settings, model, this.options.takeNotices?.() ?? [])),
      transcript: () => this.messages,
      compaction: this.compaction,
      policy: this.toolApprovals.policy,
      activity: this.activity,
      takeQueued: () => this.prompts.takeQueued(),
      signal: controller.signal,
    })
      .then((problem) => {
        if (problem !== null) this.startError = problem;
      })
      .finally(() => {
        this.stopped = controller.signal.aborted;
        this.finish(controller, prompts, false);
      });
  }

  /** The settings and their model for a run; null (with the reason shown above the composer) when none can be used. */
  private chooseModel(): { settings: Settings; model: Model } | null {
    this.startError = null;
    const settings = this.options.getSettings();
    try {
      return { settings, model: this.options.resolveModel(settings) };
    } catch (error) {
      this.startError = errorText(error);
      return null;
    }
  }

  private begin(controller: AbortController): void {
    this.abortController = controller;
    this.running = true;
  }

  /** A run (or a compaction) ended: queued messages are delivered, or go back to the composer after a Stop. */
  private finish(controller: AbortController, prompts: UserMessage[], thenRetry: boolean): void {
    this.running = false;
    this.abortController = null;
    this.runPromise = null;
    // Prompts the loop never took (it could not start) stay in the transcript, so nothing the person typed is lost.
    for (const p of this.prompts.takeUntaken(prompts)) this.append(p);
    this.emit({ type: 'run-end' });
    if (this.queued.length === 0) {
      if (thenRetry) this.retry();
      return;
    }
    if (controller.signal.aborted) {
      // The person stopped the run: what they queued goes back to the composer instead of starting a new run.
      this.draft = this.prompts.returnToDraft(this.draft);
    } else {
      // A message queued after the last tool batch (or during a compaction) still gets delivered.
      this.start(this.prompts.takeQueued());
    }
  }

  /** A message the loop completed: a prompt it took leaves the pending and queued lists as it joins the transcript. */
  private messageEnded(message: Message): void {
    this.prompts.completed(message);
    this.append(message);
  }

  /** Adds a message to the transcript and tells the subscribers. */
  private append(message: Message): void {
    this.messages = [...this.messages, message];
    this.emit({ type: 'message', message });
    this.compaction.caughtUp();
  }

  private emit(event: SessionEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }
}
