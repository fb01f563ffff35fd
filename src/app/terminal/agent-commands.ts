// The agent's shell commands as the Terminal panel shows them (read-only "agent" view).

export type AgentCommand = { id: string; command: string; output: string; status: 'running' | 'done' | 'error' };
