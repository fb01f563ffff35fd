// The agent's bash commands of one session, with their output as it streams, for the Terminal panel's agent view.
import type { AgentToolResult } from '../../agent/types';
import type { Message } from '../../ai/types';
import type { AgentCommand } from './agent-commands';

const MAX_AGENT_COMMANDS = 200;
const MAX_COMMAND_OUTPUT = 200_000;

/** The last MAX_AGENT_COMMANDS commands, each with at most the last MAX_COMMAND_OUTPUT characters of output. */
export class AgentCommandLog {
  commands = $state<AgentCommand[]>([]);

  /** A bash call the policy let through; `args` are its validated arguments. */
  started(id: string, args: unknown): void {
    const command = args && typeof args === 'object' && 'command' in args ? String((args as { command: unknown }).command) : '';
    this.commands.push({ id, command, output: '', status: 'running' });
    if (this.commands.length > MAX_AGENT_COMMANDS) this.commands.shift();
  }

  output(id: string, output: string): void {
    const command = this.commands.find((c) => c.id === id);
    if (command) command.output = output.slice(-MAX_COMMAND_OUTPUT);
  }

  ended(id: string, result: AgentToolResult, isError: boolean): void {
    const command = this.commands.find((c) => c.id === id);
    if (!command) return;
    command.output = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('').slice(-MAX_COMMAND_OUTPUT);
    command.status = isError ? 'error' : 'done';
  }

  /**
   * The log as the transcript tells it: each bash call with its result (a session opened after a reload, an
   * imported one), so the Terminal's agent view is not blank until the agent runs again.
   */
  rebuild(messages: readonly Message[]): void {
    const results = new Map<string, Message>();
    for (const m of messages) if (m.role === 'toolResult') results.set(m.toolCallId, m);
    const commands: AgentCommand[] = [];
    for (const m of messages) {
      if (m.role !== 'assistant') continue;
      for (const block of m.content) {
        if (block.type !== 'toolCall' || block.name !== 'bash') continue;
        const result = results.get(block.id);
        const output = result?.role === 'toolResult' ? result.content.map((c) => (c.type === 'text' ? c.text : '')).join('') : '';
        commands.push({
          id: block.id,
          command: typeof block.arguments.command === 'string' ? block.arguments.command : '',
          output: output.slice(-MAX_COMMAND_OUTPUT),
          status: result?.role === 'toolResult' && !result.isError ? 'done' : 'error',
        });
      }
    }
    this.commands = commands.slice(-MAX_AGENT_COMMANDS);
  }

  /** After a run, a command that never ended (a crash in the loop) must not show as running forever. */
  settle(): void {
    for (const command of this.commands) if (command.status === 'running') command.status = 'error';
  }
}
