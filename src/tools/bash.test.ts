import { describe, expect, it } from 'vitest';
import type { AgentToolResult } from '../agent/types';
import type { ExecOptions, ExecResult, Runtime } from '../runtime/types';
import { createBashTool, type BashDetails } from './bash';
import { createReadTool } from './read';
import { errorOf, runtimeWith, textOf } from './testing/tool-kit';

/** `runtime` with its exec replaced, everything else real. */
function withExec(runtime: Runtime, exec: (command: string, options?: ExecOptions) => Promise<ExecResult>): Runtime {
  return Object.assign(Object.create(runtime) as Runtime, { exec });
}

describe('bash tool', () => {
  it('returns the output of a command', async () => {
    const runtime = await runtimeWith({ 'greet.txt': 'hi there\n' });
    const result = await createBashTool(runtime).execute('id', { command: 'cat greet.txt' });
    expect(textOf(result)).toBe('hi there\n');
    expect((result.details as BashDetails).exitCode).toBe(0);
  });

  it('says when there is no output', async () => {
    const runtime = await runtimeWith();
    expect(textOf(await createBashTool(runtime).execute('id', { command: 'true' }))).toBe('(no output)');
  });

  it('makes a non-zero exit an error with the output and the code', async () => {
    const runtime = await runtimeWith();
    const message = await errorOf(createBashTool(runtime).execute('id', { command: 'echo failing; exit 3' }));
    expect(message).toContain('failing');
    expect(message).toContain('exited with code 3');
  });

  it('returns the tail of 4000 lines and saves the full output to a readable file', async () => {
    const lines = Array.from({ length: 4000 }, (_, i) => `row ${i + 1}`).join('\n') + '\n';
    const runtime = await runtimeWith({ 'rows.txt': lines });
    const result = await createBashTool(runtime).execute('call_42', { command: 'cat rows.txt' });
    const text = textOf(result);
    expect(text.startsWith('row 2001\n')).toBe(true);
    expect(text).toContain('row 4000\n');
    expect(text).not.toContain('row 2000\n');
    const details = result.details as BashDetails;
    expect(details.fullOutputPath).toMatch(/^\/tmp\/conch-bash-call_42-/);
    expect(text).toContain(details.fullOutputPath);
    expect(text).toContain('lines 2001-4000 of 4000');

    const saved = textOf(await createReadTool(runtime).execute('r', { path: details.fullOutputPath!, limit: 3 }));
    expect(saved.startsWith('row 1\nrow 2\nrow 3')).toBe(true);
  });

  it('never splits a multi-byte character at the cut', async () => {
    const runtime = await runtimeWith({ 'euro.txt': '€'.repeat(20_000) });
    const text = textOf(await createBashTool(runtime).execute('id', { command: 'cat euro.txt' }));
    const shown = text.split('\n\n')[0];
    expect(shown).toMatch(/^€+$/);
    expect(shown.length).toBe(Math.floor((50 * 1024) / 3));
  });

  it('joins a character split across output chunks whole, in the result and in updates', async () => {
    const runtime = await runtimeWith();
    const updates: AgentToolResult[] = [];
    const tool = createBashTool(withExec(runtime, async (_command, options) => {
      options?.onOutput?.('smile \ud83d');
      options?.onOutput?.('\ude00 and \u20ac\n');
      return { output: '', exitCode: 0 };
    }));
    const result = await tool.execute('id', { command: 'x' }, undefined, (partial) => updates.push(partial));
    expect(textOf(result)).toBe('smile \u{1f600} and \u20ac\n');
    expect(textOf(updates.at(-1)!)).toBe('smile \u{1f600} and \u20ac\n');
  });

  it('kills a command at its timeout and says so with the output so far', async () => {
    const runtime = await runtimeWith();
    const started = Date.now();
    const message = await errorOf(createBashTool(runtime).execute('id', { command: 'echo begun; sleep 30', timeout: 0.5 }));
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(message).toContain('timed out after 0.5 seconds');
    expect(message).toContain('begun');
  });

  it('stops a loop that never yields at its timeout', async () => {
    const runtime = await runtimeWith();
    const message = await errorOf(createBashTool(runtime).execute('id', { command: 'while true; do :; done', timeout: 0.5 }));
    expect(message).toContain('timed out after 0.5 seconds');
  });

  it('kills a command when aborted and says so', async () => {
    const runtime = await runtimeWith();
    const controller = new AbortController();
    const running = createBashTool(runtime).execute('id', { command: 'echo working; sleep 30' }, controller.signal);
    setTimeout(() => controller.abort(), 300);
    const started = Date.now();
    const message = await errorOf(running);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(message).toContain('Command aborted');
    expect(message).toContain('working');
    expect(message).not.toContain('timed out');
  });

  it('keeps the output streamed so far when an aborted exec rejects', async () => {
    const runtime = await runtimeWith();
    const controller = new AbortController();
    const tool = createBashTool(withExec(runtime, (_command, options) => {
      options?.onOutput?.('working\n');
      return new Promise((_resolve, reject) => {
        options?.signal?.addEventListener('abort', () => reject(new Error('killed')));
      });
    }));
    const running = tool.execute('id', { command: 'long' }, controller.signal);
    setTimeout(() => controller.abort(), 50);
    const message = await errorOf(running);
    expect(message).toContain('working');
    expect(message).toContain('Command aborted');
  });

  it('passes the clamped timeout in milliseconds and the signal to the runtime', async () => {
    const runtime = await runtimeWith();
    let seen: ExecOptions | undefined;
    const tool = createBashTool(withExec(runtime, async (_command, options) => {
      seen = options;
      return { output: 'ok', exitCode: 0 };
    }));
    await tool.execute('id', { command: 'x', timeout: 5000 });
    expect(seen?.timeoutMs).toBe(600_000);
    expect(seen?.signal).toBeInstanceOf(AbortSignal);
    await tool.execute('id', { command: 'x' });
    expect(seen?.timeoutMs).toBe(120_000);
  });

  it('streams throttled updates showing the tail', async () => {
    const runtime = await runtimeWith();
    const updates: AgentToolResult[] = [];
    const tool = createBashTool(withExec(runtime, async (_command, options) => {
      for (let i = 1; i <= 30; i++) {
        options?.onOutput?.(`tick ${i}\n`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return { output: '', exitCode: 0 };
    }));
    const started = Date.now();
    const result = await tool.execute('id', { command: 'ticks' }, undefined, (partial) => updates.push(partial));
    const elapsed = Date.now() - started;
    expect(updates.length).toBeGreaterThanOrEqual(2);
    expect(updates.length).toBeLessThanOrEqual(Math.ceil(elapsed / 100) + 1); // 30 chunks, at most one per 100 ms
    expect(textOf(updates.at(-1)!)).toMatch(/tick \d+\n$/);
    expect(textOf(result).split('\n')).toHaveLength(31);
  });
});
