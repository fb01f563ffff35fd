import { describe, expect, it } from 'vitest';
import { buildSystemPrompt, PLAN_MODE_SECTION, type SystemPromptInput } from './system-prompt';

const base: SystemPromptInput = {
  runtimeKind: 'embedded',
  workdir: '/home/project',
  listing: ['src/', 'package.json'],
  tools: [
    { name: 'read', description: 'Read a file.' },
    { name: 'edit', description: 'Edit a file.' },
  ],
  date: new Date(2025, 2, 7),
};

describe('buildSystemPrompt', () => {
  it('tells the model honestly that the embedded sandbox runs node in a sandboxed engine and npm, but no servers', () => {
    const prompt = buildSystemPrompt(base);
    expect(prompt).toContain('/home/project');
    expect(prompt).toMatch(/`node` runs JavaScript and TypeScript .* sandboxed engine/);
    expect(prompt).toMatch(/`npm` works: npm install .* npm test/);
    expect(prompt).toMatch(/lifecycle scripts \(postinstall and the like\) are NOT run/);
    expect(prompt).toMatch(/packages that need a native build \(node-gyp\) cannot be installed/);
    expect(prompt).toMatch(/no server can listen/);
    expect(prompt).not.toMatch(/Node\.js and npm are available/);
  });

  it('tells the model that git works locally in the embedded sandbox, and that a WebContainer has none', () => {
    const embedded = buildSystemPrompt(base);
    expect(embedded).toMatch(/git works locally/);
    expect(embedded).toMatch(/clone, fetch and pull do not \(no network\); git push sends what is committed to the repository the session was imported from/);
    expect(embedded).toMatch(/first commit is the imported files/);
    const webcontainer = buildSystemPrompt({ ...base, runtimeKind: 'webcontainer' });
    expect(webcontainer).toMatch(/There is no git: jsh does not provide one/);
    expect(webcontainer).not.toMatch(/git works locally/);
  });

  it('tells the model that node and npm work in a WebContainer', () => {
    const prompt = buildSystemPrompt({ ...base, runtimeKind: 'webcontainer' });
    expect(prompt).toMatch(/Node\.js and npm are available/);
  });

  it('lists the workspace, the active tools with guidelines, and today\'s date', () => {
    const prompt = buildSystemPrompt(base);
    expect(prompt).toContain('- src/');
    expect(prompt).toContain('- read: Read a file.');
    expect(prompt).toContain('Prefer edit for small changes');
    expect(prompt).not.toContain('- bash:');
    expect(prompt).toContain('2025-03-07');
  });

  it('carries a notice for this request only, after the date', () => {
    const line = 'Changed on disk since the last sync: src/app.ts';
    const prompt = buildSystemPrompt({ ...base, notices: [line] });
    expect(prompt.indexOf(line)).toBeGreaterThan(prompt.indexOf('2025-03-07'));
    expect(buildSystemPrompt(base)).not.toContain('Changed on disk');
  });

  it('says when the workspace is empty and truncates a long listing', () => {
    expect(buildSystemPrompt({ ...base, listing: [] })).toContain('The workspace is empty.');
    const many = Array.from({ length: 100 }, (_, i) => `f${i}.txt`);
    const prompt = buildSystemPrompt({ ...base, listing: many });
    expect(prompt).toContain('f59.txt');
    expect(prompt).not.toContain('f60.txt');
    expect(prompt).toContain('40 more entries');
  });

  it('puts AGENTS.md before the person\'s own instructions, both last', () => {
    const prompt = buildSystemPrompt({
      ...base,
      agentsMd: { fileName: 'AGENTS.md', content: 'Use tabs.' },
      nestedInstructions: ['src/api/AGENTS.md'],
      customInstructions: 'Answer in French.',
    });
    const agents = prompt.indexOf('Project instructions from AGENTS.md:\nUse tabs.');
    const nested = prompt.indexOf('- src/api/AGENTS.md');
    const own = prompt.indexOf("The person's own instructions:\nAnswer in French.");
    expect(agents).toBeGreaterThan(prompt.indexOf("Today's date"));
    expect(nested).toBeGreaterThan(agents);
    expect(own).toBeGreaterThan(nested);
  });

  it('leaves out empty instructions and says so when no writing tool is active', () => {
    const prompt = buildSystemPrompt({ ...base, tools: [{ name: 'read', description: 'Read.' }], customInstructions: '  ' });
    expect(prompt).not.toContain("person's own instructions");
    expect(prompt).toContain('You can only look, not change');
  });
});

describe('buildSystemPrompt with skills', () => {
  it('lists each skill by name, description and SKILL.md path, with the rule to read it first', () => {
    const prompt = buildSystemPrompt({
      ...base,
      skills: [{ name: 'pdf-tools', description: 'Fill PDF forms.\nUse when a PDF is given.', path: '/skills/pdf-tools/SKILL.md' }],
    });
    expect(prompt).toContain('- pdf-tools: Fill PDF forms. Use when a PDF is given. (/skills/pdf-tools/SKILL.md)');
    expect(prompt).toMatch(/Before doing work that matches a skill's description, read its SKILL.md/);
    expect(buildSystemPrompt(base)).not.toContain('Skills:');
  });
});

describe('Plan mode in the system prompt', () => {
  it('asks, last, to investigate without changing anything and to end with a plan; nothing of it outside Plan mode', async () => {
    const { RunOptions } = await import('../session/run-options');
    const { createEmbeddedRuntime } = await import('../../runtime/embedded');
    const { Workspace } = await import('../../runtime/workspace/workspace');
    const { createCodingTools } = await import('../../tools/index');
    const { defaultSettings } = await import('../settings/settings');
    const workspace = Workspace.of(await createEmbeddedRuntime());
    const options = new RunOptions({ workspace, tools: createCodingTools(workspace), streamFn: () => { throw new Error('no calls'); }, onRetryNotice: () => {} });
    const plan = { ...defaultSettings(), approvalMode: 'plan' as const };
    const tools = options.activeTools(plan);
    expect(tools.map((t) => t.name)).toEqual(['read', 'grep', 'find', 'ls', 'todo']);
    const prompt = await options.systemPrompt(tools, plan);
    expect(prompt.endsWith(PLAN_MODE_SECTION)).toBe(true);
    expect(prompt).toContain('You are in Plan mode: investigate, do not change anything, and end with a plan.');
    expect(prompt).toContain('You cannot leave Plan mode yourself');
    expect(prompt).toContain('- todo: ');
    const auto = await options.systemPrompt(options.activeTools(defaultSettings()), defaultSettings());
    expect(auto).not.toContain('Plan mode');
    expect(auto).toContain('keep a todo list with todo');
  });
});
