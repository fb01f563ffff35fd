import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import type { AgentTool } from '../../agent/types';
import { createScriptedStreamFn, toolCall, type ScriptedTurnInput } from '../../ai/providers/scripted';
import { testModel } from '../../ai/testing/test-model';
import type { StreamFn, StreamOptions } from '../../ai/types';
import type { Runtime } from '../../runtime/types';
import { SessionController, messagesForModel } from './controller.svelte';
import { defaultSettings, type Settings } from '../settings/settings';

const model = testModel({ provider: 'anthropic' });

function fakeRuntime(files: Record<string, string> = {}): Runtime {
  const enc = new TextEncoder();
  return {
    kind: 'embedded',
    workdir: '/home/project',
    readFile: async (p) => {
      const name = p.replace('/home/project/', '');
      if (!(name in files)) throw new Error(`no such file ${p}`);
      return enc.encode(files[name]);
    },
    writeFile: async () => {},
    readdir: async () => Object.keys(files).map((name) => ({ name, type: 'file' as const })),
    stat: async (p) => (p === '/home/project' ? { type: 'dir' as const, size: 0 } : p.replace('/home/project/', '') in files ? { type: 'file' as const, size: 0 } : null),
    mkdir: async () => {},
    rm: async () => {},
    rename: async () => {},
    exec: async () => ({ output: '', exitCode: 0 }),
    exportZip: async () => new Uint8Array(),
    importZip: async () => {},
    watch: () => () => {},
    dispose: async () => {},
  };
}

function bashTool(run: (command: string, signal?: AbortSignal, onUpdate?: (text: string) => void) => Promise<string>): AgentTool {
  return {
    name: 'bash', label: 'bash', description: 'Run a command.',
    parameters: Type.Object({ command: Type.String() }),
    execute: async (_id, args, signal, onUpdate) => {
      const output = await run((args as { command: string }).command, signal, (t) => onUpdate?.({ content: [{ type: 'text', text: t }] }));
      return { content: [{ type: 'text', text: output }] };
    },
  };
}

const readTool: AgentTool = {
  name: 'read', label: 'read', description: 'Read a file.',
  parameters: Type.Object({ path: Type.String() }),
  execute: async (_id, args) => ({ content: [{ type: 'text', text: `contents of ${(args as { path: string }).path}` }] }),
};

function session(turns: ScriptedTurnInput[], opts: { settings?: Partial<Settings>; tools?: AgentTool[]; files?: Record<string, string> } = {}) {
  const settings: Settings = { ...defaultSettings(), apiKey: 'k', ...opts.settings };
  const streamFn = createScriptedStreamFn(turns);
  const controller = new SessionController({
    workspace: fakeRuntime(opts.files),
    tools: opts.tools ?? [readTool, bashTool(async (c) => `ran ${c}`)],
    getSettings: () => settings,
    resolveModel: () => model,
    streamFn,
    scheduleUpdate: (fn) => queueMicrotask(fn),
  });
  return { controller, streamFn, settings };
}

const waitFor = async (check: () => boolean, what: string) => {
  for (let i = 0; i < 200; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`timed out waiting for ${what}`);
};

describe('SessionController', () => {
  it('runs a prompt through tools to the answer, with cards, totals and persistence hooks', async () => {
    const { controller, streamFn } = session(
      [
        { content: [toolCall('read', { path: 'a.txt' }), toolCall('bash', { command: 'ls' })], usage: { input: 100, output: 20 } },
        { content: 'All done.', usage: { input: 150, output: 10 } },
      ],
      { files: { 'AGENTS.md': 'Always be kind.' } },
    );
    const completed: string[] = [];
    let runEnds = 0;
    controller.subscribe((event) => {
      if (event.type === 'message') completed.push(event.message.role);
      else runEnds++;
    });

    controller.send('  Look at a.txt  ');
    expect(controller.running).toBe(true);
    await controller.idle();

    expect(controller.title).toBe('Look at a.txt');
    expect(controller.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'toolResult', 'toolResult', 'assistant']);
    expect(completed).toEqual(['user', 'assistant', 'toolResult', 'toolResult', 'assistant']);
    expect(runEnds).toBe(1);
    const cards = [...controller.cards.values()];
    expect(cards.map((c) => [c.toolName, c.status])).toEqual([['read', 'done'], ['bash', 'done']]);
    expect(cards[1].resultText).toBe('ran ls');
    expect(controller.agentCommands).toEqual([{ id: cards[1].id, command: 'ls', output: 'ran ls', status: 'done' }]);
    expect(controller.totals.input).toBe(250);
    expect(streamFn.requests[0].systemPrompt).toContain('Always be kind.');
    expect(streamFn.options[0]?.apiKey).toBe('k');
  });

  it('asks in ask mode; a denial blocks the card and reaches the model', async () => {
    const { controller, streamFn } = session(
      [{ content: [toolCall('bash', { command: 'rm -rf /' })] }, { content: 'Understood.' }],
      { settings: { approvalMode: 'ask' } },
    );
    controller.send('clean up');
    await waitFor(() => controller.approvals.length === 1, 'the approval question');
    const [pending] = controller.approvals;
    const card = controller.card(pending.question.toolCallId);
    expect(card?.status).toBe('pending');
    expect(card?.awaitingApproval).toBe(true);
    controller.answerApproval(pending.question.id, { decision: 'deny', reason: 'too dangerous' });
    await controller.idle();
    expect(card?.status).toBe('blocked');
    expect(card?.blockedReason).toContain('too dangerous');
    const secondRequest = JSON.stringify(streamFn.requests[1].messages);
    expect(secondRequest).toContain('too dangerous');
  });

  it('abort stops a running command: the card ends with an aborted result and queued text returns to the draft', async () => {
    const slow = bashTool(
      (_c, signal) => new Promise((_, reject) => signal?.addEventListener('abort', () => reject(new Error('killed')))),
    );
    const { controller } = session([{ content: [toolCall('bash', { command: 'sleep 100' })] }, 'unused'], { tools: [slow] });
    controller.send('wait');
    await waitFor(() => [...controller.cards.values()][0]?.status === 'running', 'the command to run');
    controller.send('and then this');
    expect(controller.queued).toHaveLength(1);
    controller.abort();
    await controller.idle();
    const card = [...controller.cards.values()][0];
    expect(card.status).toBe('error');
    expect(card.resultText).toMatch(/aborted/i);
    expect(controller.running).toBe(false);
    expect(controller.queued).toHaveLength(0);
    expect(controller.draft).toBe('and then this');
  });

  it('delivers a queued message after the current tool batch, in the same run', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const tool = bashTool(async () => {
      await gate;
      return 'ok';
    });
    const { controller, streamFn } = session(
      [{ content: [toolCall('bash', { command: 'build' })] }, { content: 'Noted your message.' }],
      { tools: [tool] },
    );
    controller.send('build it');
    await waitFor(() => [...controller.cards.values()][0]?.status === 'running', 'the command to run');
    controller.send('also run the tests');
    expect(controller.queued).toHaveLength(1);
    release();
    await controller.idle();
    expect(controller.queued).toHaveLength(0);
    const roles = controller.messages.map((m) => m.role);
    expect(roles).toEqual(['user', 'assistant', 'toolResult', 'user', 'assistant']);
    expect(JSON.stringify(streamFn.requests[1].messages)).toContain('also run the tests');
  });

  it('a provider error offers retry, which continues without showing the model the failed reply', async () => {
    const { controller, streamFn } = session([
      { content: [], stopReason: 'error', errorMessage: 'HTTP 500 from the provider' },
      'Second time lucky.',
    ]);
    controller.send('hello');
    await controller.idle();
    expect(controller.failedMessage?.errorMessage).toBe('HTTP 500 from the provider');
    controller.retry();
    await controller.idle();
    expect(controller.failedMessage).toBeNull();
    expect(streamFn.requests[1].messages.map((m) => m.role)).toEqual(['user']);
    expect(controller.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'assistant']);
  });

  it('reports a missing model without losing the prompt', () => {
    const controller = new SessionController({
      workspace: fakeRuntime(),
      tools: [],
      getSettings: () => defaultSettings(),
      resolveModel: () => {
        throw new Error('Choose a model in settings.');
      },
      streamFn: createScriptedStreamFn([]),
    });
    controller.send('hi');
    expect(controller.startError).toBe('Choose a model in settings.');
    expect(controller.messages).toHaveLength(1);
  });

  it('keeps only reading tools active in read-only mode', async () => {
    const { controller, streamFn } = session(['ok'], { settings: { approvalMode: 'read-only' } });
    controller.send('look');
    await controller.idle();
    expect(streamFn.requests[0].tools.map((t) => t.name)).toEqual(['read']);
  });

  it('leaves empty failed replies out of what the model sees', () => {
    const user = { role: 'user' as const, content: 'x', timestamp: 1 };
    const failed = { role: 'assistant' as const, content: [], provider: 'p', model: 'm', usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: { total: 0 } }, stopReason: 'error' as const, timestamp: 2 };
    expect(messagesForModel([user, failed])).toEqual([user]);
  });
});

describe("the provider's web tools", () => {
  function webSession(withWebTools: boolean) {
    const options: (StreamOptions | undefined)[] = [];
    const scripted = createScriptedStreamFn([{ content: 'one' }, { content: 'two' }]);
    const streamFn: StreamFn = (m, request, o) => (options.push(o), scripted(m, request, o));
    const controller = new SessionController({
      workspace: fakeRuntime(),
      tools: [readTool],
      getSettings: () => ({ ...defaultSettings(), apiKey: 'k' }),
      resolveModel: () => (withWebTools ? { ...model, webTools: { searchPer1000: 10 } } : model),
      streamFn,
      scheduleUpdate: (fn) => queueMicrotask(fn),
    });
    return { controller, options };
  }

  it('are asked for only once the session switches them on, and the switch is told to the subscribers', async () => {
    const { controller, options } = webSession(true);
    const told: boolean[] = [];
    controller.subscribe((event) => event.type === 'web-tools' && told.push(event.on));
    controller.send('first');
    await controller.idle();
    controller.webTools.set(true);
    controller.webTools.set(true);
    controller.send('second');
    await controller.idle();
    expect(options.map((o) => o?.webTools)).toEqual([undefined, true]);
    expect(told).toEqual([true]);
  });

  it('are never asked of a model without them', async () => {
    const { controller, options } = webSession(false);
    controller.webTools.set(true);
    controller.send('hi');
    await controller.idle();
    expect(options[0]?.webTools).toBeUndefined();
  });
});
