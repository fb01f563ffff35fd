import { Type } from '@sinclair/typebox';
import { describe, expect, it, vi } from 'vitest';
import { toolCall } from '../ai/providers/scripted';
import { BatchOrder, mustFollow } from './batch-order';
import { deferred, makeTool, runScripted } from './testing/loop-kit';
import type { AgentToolResult, ToolEffects } from './types';

const schema = Type.Object({ path: Type.Optional(Type.String()), id: Type.String() });
type Args = { path?: string; id: string };

/**
 * Tools that log when each call starts and ends; a call whose id is in `held` stays running until released, so a
 * test can see which later calls start meanwhile.
 */
function recordingTools(held: Record<string, Promise<void>> = {}) {
  const log: string[] = [];
  const make = (name: string, kind: ToolEffects['kind']) =>
    makeTool(
      name,
      schema,
      async (args): Promise<AgentToolResult> => {
        const { id } = args as Args;
        log.push(`${id} start`);
        await held[id];
        await new Promise((r) => setTimeout(r, 1));
        log.push(`${id} end`);
        return { content: [{ type: 'text', text: id }] };
      },
      { effects: (args) => ({ kind, paths: kind === 'exec' || kind === 'fork' ? [] : [(args as Args).path ?? '/w'] }) },
    );
  return {
    log,
    tools: [make('read', 'read'), make('edit', 'write'), make('bash', 'exec'), makeTool('free', schema, () => ({ content: [] })), make('worker', 'fork')],
  };
}

const startedBeforeEnded = (log: string[], later: string, earlier: string) => log.indexOf(`${later} start`) < log.indexOf(`${earlier} end`);

describe('batch ordering', () => {
  it('runs a bash after the edit it depends on has finished', async () => {
    const { log, tools } = recordingTools();
    await runScripted([{ content: [toolCall('edit', { path: '/w/hello.txt', id: 'edit' }), toolCall('bash', { id: 'bash' })] }, 'ok'], { tools });
    expect(log).toEqual(['edit start', 'edit end', 'bash start', 'bash end']);
  });

  it('runs a write after an earlier bash has finished', async () => {
    const { log, tools } = recordingTools();
    await runScripted([{ content: [toolCall('bash', { id: 'bash' }), toolCall('edit', { path: '/w/out.txt', id: 'write' })] }, 'ok'], { tools });
    expect(log).toEqual(['bash start', 'bash end', 'write start', 'write end']);
  });

  it('runs a read of any path after an earlier bash, and a bash after an earlier read', async () => {
    const { log, tools } = recordingTools();
    await runScripted(
      [{ content: [toolCall('read', { path: '/w/a', id: 'r1' }), toolCall('bash', { id: 'bash' }), toolCall('read', { path: '/w/b', id: 'r2' })] }, 'ok'],
      { tools },
    );
    expect(log).toEqual(['r1 start', 'r1 end', 'bash start', 'bash end', 'r2 start', 'r2 end']);
  });

  it('overlaps two reads, and reads of different files with a write', async () => {
    const gate = deferred();
    const { log, tools } = recordingTools({ r1: gate.promise });
    const run = runScripted(
      [
        {
          content: [
            toolCall('read', { path: '/w/src', id: 'r1' }),
            toolCall('read', { path: '/w/src/x.ts', id: 'r2' }),
            toolCall('edit', { path: '/w/other.ts', id: 'w' }),
          ],
        },
        'ok',
      ],
      { tools },
    );
    await until(() => log.includes('r2 end') && log.includes('w end'));
    expect(log).not.toContain('r1 end'); // both ran while the first read was still going
    gate.resolve();
    await run;
  });

  it('runs a read after a write of a file inside the folder it reads, and a write after a read of its folder', async () => {
    const { log, tools } = recordingTools();
    await runScripted(
      [
        {
          content: [
            toolCall('edit', { path: '/w/src/x.ts', id: 'edit' }),
            toolCall('read', { path: '/w/src', id: 'grep' }),
            toolCall('edit', { path: '/w/src/y.ts', id: 'edit2' }),
          ],
        },
        'ok',
      ],
      { tools },
    );
    expect(startedBeforeEnded(log, 'grep', 'edit')).toBe(false);
    expect(startedBeforeEnded(log, 'edit2', 'grep')).toBe(false);
  });

  it('does not confuse a folder with a file that shares its prefix', async () => {
    const gate = deferred();
    const { log, tools } = recordingTools({ w: gate.promise });
    const run = runScripted(
      [{ content: [toolCall('edit', { path: '/w/src', id: 'w' }), toolCall('read', { path: '/w/src2/a.ts', id: 'r' })] }, 'ok'],
      { tools },
    );
    await until(() => log.includes('r end'));
    gate.resolve();
    await run;
  });

  it('lets a tool that declares no effects overlap with anything', async () => {
    const gate = deferred();
    const { log, tools } = recordingTools({ bash: gate.promise });
    let freeRan = false;
    tools[3] = makeTool('free', schema, () => {
      freeRan = true;
      return { content: [] };
    });
    const run = runScripted([{ content: [toolCall('bash', { id: 'bash' }), toolCall('free', { id: 'f' })] }, 'ok'], { tools });
    await until(() => freeRan);
    expect(log).not.toContain('bash end');
    gate.resolve();
    await run;
  });

  it('delivers results in call order, whatever order they finish in', async () => {
    const gate = deferred();
    const { tools } = recordingTools({ slow: gate.promise });
    const run = runScripted(
      [{ content: [toolCall('read', { path: '/w/a', id: 'slow' }), toolCall('read', { path: '/w/b', id: 'fast' })] }, 'ok'],
      { tools },
    );
    setTimeout(() => gate.resolve(), 20);
    const { toolResults, events } = await run;
    expect(toolResults.map((r) => (r.content[0] as { text: string }).text)).toEqual(['slow', 'fast']);
    const ends = events.filter((e) => e.type === 'tool_execution_end').map((e) => (e.type === 'tool_execution_end' ? e.toolCallId : ''));
    expect(ends).toHaveLength(2);
  });

  it('gives a call waiting behind another an aborted result when the run is stopped meanwhile', async () => {
    const gate = deferred();
    const { log, tools } = recordingTools({ bash: gate.promise });
    const controller = new AbortController();
    const run = runScripted([{ content: [toolCall('bash', { id: 'bash' }), toolCall('edit', { path: '/w/a', id: 'edit' })] }, 'ok'], {
      tools,
      signal: controller.signal,
    });
    await until(() => log.includes('bash start'));
    controller.abort();
    const { toolResults } = await run;
    expect(log).not.toContain('edit start');
    expect(toolResults.map((r) => r.isError)).toEqual([true, true]);
  });
});

/** Waits until `condition` holds (polling, as the calls run on their own timers). */
function until(condition: () => boolean): Promise<void> {
  return vi.waitFor(() => expect(condition()).toBe(true), { timeout: 2000, interval: 2 });
}

describe('forks (worker subagents) in a batch', () => {
  it('overlaps forks with each other and with earlier reads, waits for an earlier write, and holds up later calls', async () => {
    const gate = deferred();
    const { log, tools } = recordingTools({ w1: gate.promise });
    const run = runScripted(
      [
        {
          content: [
            toolCall('read', { path: '/w/a', id: 'r1' }),
            toolCall('worker', { id: 'w1' }),
            toolCall('worker', { id: 'w2' }),
            toolCall('read', { path: '/w/b', id: 'r2' }),
          ],
        },
        'ok',
      ],
      { tools },
    );
    await until(() => log.includes('w2 end'));
    expect(log).toContain('w1 start');
    expect(log).not.toContain('r2 start'); // a read after a fork waits for its changes to land
    gate.resolve();
    await run;
    expect(startedBeforeEnded(log, 'w1', 'r1')).toBe(true);
    expect(log.indexOf('r2 start')).toBeGreaterThan(log.indexOf('w1 end'));
  });

  it('starts a fork only after an earlier write has finished', async () => {
    const { log, tools } = recordingTools();
    await runScripted([{ content: [toolCall('edit', { path: '/w/a', id: 'e' }), toolCall('worker', { id: 'w' })] }, 'ok'], { tools });
    expect(log).toEqual(['e start', 'e end', 'w start', 'w end']);
  });

  it('states the rule pairwise', () => {
    const fork: ToolEffects = { kind: 'fork', paths: [] };
    expect(mustFollow(fork, fork)).toBe(false);
    expect(mustFollow({ kind: 'read', paths: ['/w'] }, fork)).toBe(false);
    expect(mustFollow({ kind: 'write', paths: ['/w/a'] }, fork)).toBe(true);
    expect(mustFollow({ kind: 'exec', paths: [] }, fork)).toBe(true);
    expect(mustFollow(fork, { kind: 'read', paths: ['/x'] })).toBe(true);
    expect(mustFollow(fork, { kind: 'exec', paths: [] })).toBe(true);
  });
});

describe('the batch index', () => {
  it('names exactly the earlier calls the pairwise rule names, for any mix of effects', () => {
    const paths = ['/w', '/w/a.ts', '/w/b.ts', '/w/sub', '/w/sub/c.ts', '/x'];
    const kinds: (ToolEffects['kind'] | undefined)[] = ['read', 'read', 'read', 'write', 'exec', 'fork', undefined];
    let seed = 7;
    const next = (n: number) => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) % n;
    for (let batch = 0; batch < 200; batch++) {
      const order = new BatchOrder<number>();
      const earlier: (ToolEffects | undefined)[] = [];
      for (let call = 0; call < 30; call++) {
        const kind = kinds[next(kinds.length)];
        const effects: ToolEffects | undefined =
          kind === undefined ? undefined : { kind, paths: kind === 'exec' || kind === 'fork' ? [] : [paths[next(paths.length)], paths[next(paths.length)]].slice(0, 1 + next(2)) };
        const expected = earlier.flatMap((e, index) => (mustFollow(e, effects) ? [index] : []));
        expect(order.mustFollow(effects)).toEqual(expected);
        order.add(effects, call);
        earlier.push(effects);
      }
    }
  });
});
