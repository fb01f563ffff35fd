// The bash tool: runs a command in the runtime's shell, streams its output, and returns the tail of it.
import { Type, type Static } from '@sinclair/typebox';
import type { AgentTool, AgentToolResult } from '../agent/types';
import type { Runtime } from '../runtime/types';
import { Workspace } from '../runtime/workspace/workspace';
import { effectsOf } from './catalog';
import { textResult } from './tool-support';
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, truncateTail, type TruncationResult } from './truncate';
import { formatBytes } from './utf8';

export const DEFAULT_BASH_TIMEOUT_SECONDS = 120;
export const MAX_BASH_TIMEOUT_SECONDS = 600;
const UPDATE_INTERVAL_MS = 100;
// The runtime enforces timeoutMs itself (and says so in its output); our own timer is only a backstop.
const TIMEOUT_BACKSTOP_MS = 1000;

export const bashParameters = Type.Object({
  command: Type.String({ description: 'The shell command to run in the project folder.' }),
  timeout: Type.Optional(
    Type.Number({
      exclusiveMinimum: 0,
      description: `Seconds before the command is killed (default ${DEFAULT_BASH_TIMEOUT_SECONDS}, at most ${MAX_BASH_TIMEOUT_SECONDS}).`,
    }),
  ),
});

export type BashArguments = Static<typeof bashParameters>;

export interface BashDetails {
  exitCode: number | null;
  truncation?: TruncationResult;
  /** Where the full output was saved when the returned text is only its tail. */
  fullOutputPath?: string;
}

/** The bash tool over `target`'s workspace. */
export function createBashTool(target: Runtime | Workspace): AgentTool<typeof bashParameters> {
  const workspace = Workspace.of(target);
  return {
    name: 'bash',
    label: 'Bash',
    description:
      'Run a shell command in the sandbox (the working directory persists between calls). Returns the combined ' +
      `output; when it is longer than ${DEFAULT_MAX_LINES} lines or ${DEFAULT_MAX_BYTES / 1024} KB only the end is ` +
      'returned and the full output is saved to a file you can read. A non-zero exit code is reported as an error. ' +
      `Commands are killed after timeout seconds (default ${DEFAULT_BASH_TIMEOUT_SECONDS}).`,
    parameters: bashParameters,
    effects: () => effectsOf('bash', []),
    async execute(toolCallId, args, signal, onUpdate) {
      const timeoutSeconds = Math.min(args.timeout ?? DEFAULT_BASH_TIMEOUT_SECONDS, MAX_BASH_TIMEOUT_SECONDS);
      const timeoutMs = Math.round(timeoutSeconds * 1000);
      const output = new OutputCollector(onUpdate);
      // Our own controller lets us tell a timeout from an abort whatever the runtime reports.
      const controller = new AbortController();
      let stoppedBy: 'timeout' | 'abort' | null = null;
      const stop = (reason: 'timeout' | 'abort') => {
        stoppedBy ??= reason;
        controller.abort();
      };
      const onAbort = () => stop('abort');
      if (signal?.aborted) stop('abort');
      signal?.addEventListener('abort', onAbort, { once: true });
      const timer = setTimeout(() => stop('timeout'), timeoutMs + TIMEOUT_BACKSTOP_MS);

      let exitCode: number | null = null;
      let failure: unknown = null;
      const started = Date.now();
      try {
        if (!controller.signal.aborted) {
          const result = await workspace.exec(args.command, {
            signal: controller.signal,
            timeoutMs,
            onOutput: (chunk) => output.push(chunk),
          });
          exitCode = result.exitCode;
          output.settle(result.output);
        }
      } catch (error) {
        failure = error;
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        output.close();
      }
      // A command that never yields (a tight loop in an in-process shell) blocks our timers; the runtime stops it
      // by its own deadline, so judge by the clock and the caller's signal as well.
      if (stoppedBy === null && exitCode !== 0) {
        if (signal?.aborted) stoppedBy = 'abort';
        else if (Date.now() - started >= timeoutMs) stoppedBy = 'timeout';
      }

      const { text, details } = await finishOutput(workspace, toolCallId, output.text(), exitCode);
      if (stoppedBy === 'abort') throw new Error(`${text}\n\nCommand aborted; it was stopped before finishing.`);
      if (stoppedBy === 'timeout') {
        throw new Error(`${text}\n\nCommand timed out after ${timeoutSeconds} second${timeoutSeconds === 1 ? '' : 's'} and was killed. ` +
          'Give a larger timeout, or run long tasks in the background and check on them.');
      }
      if (failure !== null) {
        const reason = failure instanceof Error ? failure.message : String(failure);
        throw new Error(`${text}\n\nCommand could not run: ${reason}`);
      }
      if (exitCode === null) throw new Error(`${text}\n\nCommand was terminated without an exit code.`);
      if (exitCode !== 0) throw new Error(`${text}\n\nCommand exited with code ${exitCode}.`);
      return textResult(text, details);
    },
  };
}

async function finishOutput(runtime: Runtime, toolCallId: string, full: string, exitCode: number | null) {
  const truncation = truncateTail(full);
  const details: BashDetails = { exitCode };
  if (!truncation.truncated) return { text: full.length === 0 ? '(no output)' : full, details };

  details.truncation = truncation;
  const path = `/tmp/conch-bash-${safeId(toolCallId)}.log`;
  let saved = true;
  try {
    await runtime.writeFile(path, new TextEncoder().encode(full));
    details.fullOutputPath = path;
  } catch {
    saved = false;
  }
  const firstShown = truncation.totalLines - truncation.outputLines + 1;
  const shown = truncation.lastLinePartial
    ? `the last ${formatBytes(truncation.outputBytes)} of line ${truncation.totalLines}`
    : `lines ${firstShown}-${truncation.totalLines} of ${truncation.totalLines}`;
  const where = saved
    ? `Full output (${formatBytes(truncation.totalBytes)}): ${path}; read it with the read tool (offset/limit) or search it with grep.`
    : 'The full output could not be saved.';
  return { text: `${truncation.content}\n\n[Output cut: showing ${shown}. ${where}]`, details };
}

function safeId(toolCallId: string): string {
  const cleaned = toolCallId.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 40);
  return `${cleaned || 'call'}-${Date.now().toString(36)}`;
}

// Collects streamed chunks and reports the tail at most every UPDATE_INTERVAL_MS.
class OutputCollector {
  private chunks: string[] = [];
  private final: string | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private lastUpdate = 0;

  constructor(private readonly onUpdate?: (partial: AgentToolResult) => void) {}

  push(chunk: string): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    if (!this.onUpdate || this.timer !== null) return;
    const wait = Math.max(0, this.lastUpdate + UPDATE_INTERVAL_MS - Date.now());
    this.timer = setTimeout(() => this.flush(), wait);
  }

  /** The runtime's own copy of the output, once exec returned. */
  settle(output: string): void {
    this.final = output;
  }

  /** Stops the throttle; output still waiting for its update is sent now, so every command shows its output. */
  close(): void {
    if (this.timer === null) return;
    clearTimeout(this.timer);
    this.flush();
  }

  // A runtime keeps only a bounded tail of a flood in its result while the streamed chunks hold all of it, so the
  // longer of the two is the whole output; otherwise the runtime's copy wins.
  text(): string {
    const streamed = this.joined();
    if (this.final === null || streamed.length > this.final.length) return streamed;
    return this.final;
  }

  private joined(): string {
    if (this.chunks.length > 1) this.chunks = [this.chunks.join('')];
    return this.chunks[0] ?? '';
  }

  private flush(): void {
    this.timer = null;
    this.lastUpdate = Date.now();
    this.onUpdate?.(textResult(truncateTail(this.recentTail()).content));
  }

  // Only the last chunks matter for a tail of at most DEFAULT_MAX_BYTES; avoid joining everything each time.
  private recentTail(): string {
    let length = 0;
    let from = this.chunks.length;
    while (from > 0 && length < DEFAULT_MAX_BYTES) length += this.chunks[--from].length;
    return this.chunks.slice(from).join('');
  }
}
