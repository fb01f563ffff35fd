// Nested instructions as the model receives them, through a real session: the embedded runtime, the coding tools, the
// loop and the compaction, against a scripted provider whose requests are what would reach the wire.
import { describe, expect, it } from 'vitest';
import { bulk, scriptedWithSummaries, smallModel } from '../../agent/compaction/testing/transcripts';
import { toolCall, type ScriptedTurnInput } from '../../ai/providers/scripted';
import type { Message, StreamRequest } from '../../ai/types';
import { createEmbeddedRuntime } from '../../runtime/embedded';
import { createCodingTools } from '../../tools';
import { SessionController } from '../session/controller.svelte';
import { defaultSettings, type Settings } from '../settings/settings';

const FILES = {
  'AGENTS.md': 'Root: run npm test before you finish.',
  'src/api/AGENTS.md': 'API: every handler validates its input.',
  'src/api/v2/AGENTS.md': 'V2: responses are JSON:API documents.',
  'src/api/v2/users.ts': 'export const users = [];',
  'src/api/health.ts': 'export const ok = true;',
  'src/web/page.ts': 'export {};',
};

function session(turns: ScriptedTurnInput[], files: Record<string, string> = FILES) {
  const runtime = createEmbeddedRuntime({ files });
  const settings: Settings = { ...defaultSettings(), apiKey: 'k', compaction: { auto: false, reserveTokens: 0, keepRecentTokens: 200 } };
  const scripted = scriptedWithSummaries(turns);
  const controller = new SessionController({
    workspace: runtime,
    tools: createCodingTools(runtime),
    getSettings: () => settings,
    resolveModel: () => smallModel(200_000, 8_192),
    streamFn: scripted.streamFn,
    scheduleUpdate: (fn) => queueMicrotask(fn),
  });
  return { controller, runtime, ...scripted };
}

const read = (path: string) => ({ content: [toolCall('read', { path })] });
const done = { content: 'Done.' };

/** The texts the model was sent in the tool result for the last call reading `path`, in `request`. */
function resultTexts(request: StreamRequest, path: string): string[] {
  const call = request.messages.flatMap((m) => (m.role === 'assistant' ? m.content : [])).findLast((c) => c.type === 'toolCall' && c.arguments.path === path);
  const result = request.messages.find((m): m is Extract<Message, { role: 'toolResult' }> => m.role === 'toolResult' && call?.type === 'toolCall' && m.toolCallId === call.id);
  return result ? result.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])) : [];
}

const attached = (request: StreamRequest, path: string) => resultTexts(request, path).filter((t) => t.startsWith('Instructions for '));

describe('nested instructions', () => {
  it('puts the root\'s text and the nested paths in the system prompt, and each folder\'s text on its first file, nearest first', async () => {
    const { controller, agentRequests } = session([read('src/api/v2/users.ts'), read('src/api/health.ts'), read('src/web/page.ts'), done]);
    controller.send('Look around');
    await controller.idle();

    const system = agentRequests[0].systemPrompt;
    expect(system).toContain('Project instructions from AGENTS.md:\nRoot: run npm test before you finish.');
    expect(system).toContain('- src/api/AGENTS.md\n- src/api/v2/AGENTS.md');
    expect(system).not.toContain('every handler validates');

    expect(attached(agentRequests[1], 'src/api/v2/users.ts')).toEqual([
      'Instructions for src/api/v2/ (from src/api/v2/AGENTS.md):\nV2: responses are JSON:API documents.',
      'Instructions for src/api/ (from src/api/AGENTS.md):\nAPI: every handler validates its input.',
    ]);
    expect(resultTexts(agentRequests[2], 'src/api/health.ts')).toHaveLength(1); // src/api/ came already
    expect(resultTexts(agentRequests[3], 'src/web/page.ts')).toHaveLength(1); // no instructions there
    expect(controller.runOptions.instructions.files).toEqual(['AGENTS.md', 'src/api/AGENTS.md', 'src/api/v2/AGENTS.md']);
  });

  it('brings a folder\'s instructions once per session, and again once a compaction has summarised them away', async () => {
    const { controller, agentRequests } = session([
      read('src/api/health.ts'), done,
      read('src/api/health.ts'), done,
      { content: bulk(400, 'talk') },
      read('src/api/health.ts'), read('src/api/v2/users.ts'), done,
    ]);
    controller.send('First');
    await controller.idle();
    controller.send('Second');
    await controller.idle();
    expect(attached(agentRequests[1], 'src/api/health.ts')).toHaveLength(1);
    expect(attached(agentRequests[3], 'src/api/health.ts')).toEqual([]);
    const everyAttached = agentRequests[3].messages.flatMap((m) => (m.role === 'toolResult' ? m.content : [])).filter((c) => c.type === 'text' && c.text.startsWith('Instructions for '));
    expect(everyAttached).toHaveLength(1);

    controller.send('Chat a while');
    await controller.idle();
    controller.compact();
    await controller.idle();
    expect(controller.compaction.compactions).toHaveLength(1);
    controller.send('Third');
    await controller.idle();

    const afterCompaction = agentRequests[5];
    expect(afterCompaction.messages.some((m) => m.role === 'toolResult')).toBe(false); // the earlier reads were summarised
    expect(afterCompaction.systemPrompt).toContain('Root: run npm test before you finish.');
    expect(afterCompaction.systemPrompt).toContain('- src/api/AGENTS.md');
    expect(attached(agentRequests[6], 'src/api/health.ts')).toEqual(['Instructions for src/api/ (from src/api/AGENTS.md):\nAPI: every handler validates its input.']);
    expect(attached(agentRequests[7], 'src/api/v2/users.ts')).toEqual(['Instructions for src/api/v2/ (from src/api/v2/AGENTS.md):\nV2: responses are JSON:API documents.']);
  });

  it('attaches a folder\'s file again, as it is now, after it changed mid-session', async () => {
    const { controller, agentRequests, runtime } = session([
      read('src/api/health.ts'), done,
      read('src/api/health.ts'), done,
    ]);
    controller.send('First');
    await controller.idle();
    await runtime.exec('echo "API: handlers return problem+json on errors." > src/api/AGENTS.md');
    await runtime.exec('echo "Root: use pnpm." > AGENTS.md');
    controller.send('Second');
    await controller.idle();
    expect(agentRequests[2].systemPrompt).toContain('Project instructions from AGENTS.md:\nRoot: use pnpm.');
    expect(attached(agentRequests[3], 'src/api/health.ts')).toEqual(['Instructions for src/api/ (from src/api/AGENTS.md):\nAPI: handlers return problem+json on errors.']);
  });

  it('sends the root instructions as they are now on the next request of the same run, after the agent rewrote them', async () => {
    const { controller, agentRequests } = session([{ content: [toolCall('write', { path: 'AGENTS.md', content: 'Root: use pnpm.' })] }, done]);
    controller.send('Switch us to pnpm');
    await controller.idle();
    expect(agentRequests[0].systemPrompt).toContain('Root: run npm test before you finish.');
    expect(agentRequests[1].systemPrompt).toContain('Project instructions from AGENTS.md:\nRoot: use pnpm.');
    expect(agentRequests[1].systemPrompt).not.toContain('run npm test');
  });

  it('keeps root and attached instructions within 32 KiB in all, saying where the rest is', async () => {
    const files = {
      'AGENTS.md': 'r'.repeat(30 * 1024),
      'src/api/AGENTS.md': `${'a'.repeat(4 * 1024)}END`,
      'src/api/v2/AGENTS.md': 'v'.repeat(1024),
      'src/api/v2/users.ts': 'x',
    };
    const { controller, agentRequests } = session([read('src/api/v2/users.ts'), done], files);
    controller.send('Go');
    await controller.idle();
    const parts = attached(agentRequests[1], 'src/api/v2/users.ts');
    const bytes = (text: string) => new TextEncoder().encode(text).length;
    expect(parts[0]).toBe(`Instructions for src/api/v2/ (from src/api/v2/AGENTS.md):\n${'v'.repeat(1024)}`);
    expect(parts[1]).toMatch(/^Instructions for src\/api\/ \(from src\/api\/AGENTS\.md\):\na+\n… \(cut here: instructions may take 32 KiB in all; read src\/api\/AGENTS\.md for the rest\)$/);
    expect(parts[1]).not.toContain('END');
    expect(bytes('r'.repeat(30 * 1024)) + parts.reduce((sum, part) => sum + bytes(part), 0)).toBeLessThanOrEqual(32 * 1024);
  });
});
