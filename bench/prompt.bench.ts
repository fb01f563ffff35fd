// Building the system prompt on a real-sized repo (bench/lib/big-repo.ts: 20,000 files) that carries a root AGENTS.md,
// 30 nested AGENTS.md files and 50 skills: the page's own path (RunOptions.systemPrompt: the instruction files found by
// the embedded runtime's name search, read, then the prompt builder; the skills as the workspace's conventions find
// them, which is what the page's Conventions.forRun does for the workspace's own), the first time in a session and
// after it, also after a change that does not matter (a source file) and one that does (a nested AGENTS.md). Target:
// at most 20 ms after the first time. Prints figures; asserts nothing.
import type { StreamFn } from '../src/ai/types';
import { WorkspaceConventionsCache } from '../src/app/conventions/workspace-conventions';
import { RunOptions } from '../src/app/session/run-options';
import { defaultSettings } from '../src/app/settings/settings';
import { createEmbeddedRuntime } from '../src/runtime/embedded';
import { Workspace } from '../src/runtime/workspace/workspace';
import { createCodingTools } from '../src/tools';
import { generateBigRepo } from './lib/big-repo';

const NESTED = 30;
const SKILLS = 50;
const RUNS = 20;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (value: number) => `${value.toFixed(2).padStart(8)} ms`;

/** The big repo as workspace files, plus the root's AGENTS.md, one in each of 30 source folders, and 50 skills. */
function fixture(): { files: Record<string, string | Uint8Array>; nested: string[]; skills: string[] } {
  const repo = generateBigRepo();
  const files: Record<string, string | Uint8Array> = {};
  for (const file of repo.files) files[file.path] = file.data;
  const folders = [...new Set(repo.files.map((f) => f.path.slice(0, f.path.lastIndexOf('/'))).filter((f) => f.startsWith('packages/')))].sort();
  const nested = folders.filter((_, i) => i % Math.max(1, Math.floor(folders.length / NESTED)) === 0).slice(0, NESTED).map((f) => `${f}/AGENTS.md`);
  files['AGENTS.md'] = `# Working here\n\n${'- Run the tests before you finish; keep changes small.\n'.repeat(40)}`;
  for (const path of nested) files[path] = `# ${path}\n\n${'- Follow this folder\'s conventions.\n'.repeat(20)}`;
  const skills = Array.from({ length: SKILLS }, (_, i) => `bench-skill-${String(i).padStart(2, '0')}`);
  for (const name of skills) {
    files[`.agents/skills/${name}/SKILL.md`] = `---\nname: ${name}\ndescription: What ${name} does, and when to use it (a bench fixture).\n---\n\n# ${name}\n\n${'Step by step.\n'.repeat(30)}`;
  }
  return { files, nested, skills };
}

async function main(): Promise<void> {
  const { files, nested, skills } = fixture();
  const runtime = createEmbeddedRuntime({ files });
  const workspace = Workspace.of(runtime);
  const noModel: StreamFn = () => {
    throw new Error('The prompt bench never calls a model.');
  };
  // Conventions.forRun (a Svelte state class) without the person's own skills, which this workspace has none of:
  // the same cache it keeps of the workspace's.
  const conventions = new WorkspaceConventionsCache(workspace);
  const workspaceSkills = async () =>
    (await conventions.current()).skills
      .filter((skill) => skill.invalid === undefined && skill.modelInvocable)
      .map(({ name, description, path }) => ({ name, description, path }));
  const options = new RunOptions({ workspace, tools: createCodingTools(workspace), streamFn: noModel, onRetryNotice: () => undefined, skills: workspaceSkills });
  const settings = defaultSettings();
  const tools = options.activeTools(settings);
  const build = async () => {
    const started = performance.now();
    const prompt = await options.systemPrompt(tools, settings);
    return { ms: performance.now() - started, prompt };
  };

  const first = await build();
  const after: number[] = [];
  for (let i = 0; i < RUNS; i++) after.push((await build()).ms);
  const afterSource: number[] = [];
  for (let i = 0; i < 5; i++) {
    await workspace.writeFile('packages/bench-touched.ts', `export const run = ${i};\n`);
    afterSource.push((await build()).ms);
  }
  const afterInstructions: number[] = [];
  for (let i = 0; i < 5; i++) {
    await workspace.writeFile(nested[0], `# changed ${i}\n`);
    afterInstructions.push((await build()).ms);
  }

  const prompt = first.prompt;
  console.log(`Workspace: ${Object.keys(files).length} files; ${nested.length} nested AGENTS.md; ${skills.length} skills`);
  console.log(`System prompt: ${prompt.length} characters; nested paths listed ${nested.filter((p) => prompt.includes(p)).length}/${nested.length}`);
  console.log(`Skills in the prompt: ${skills.filter((name) => prompt.includes(name)).length}/${skills.length}`);
  console.log(`  first time in the session                 ${ms(first.ms)}`);
  console.log(`  after the first time (median of ${RUNS})       ${ms(median(after))}   (max ${after.reduce((a, b) => Math.max(a, b)).toFixed(1)} ms; target <= 20 ms)`);
  console.log(`  after a source file changed (median of 5)  ${ms(median(afterSource))}`);
  console.log(`  after a nested AGENTS.md changed (median) ${ms(median(afterInstructions))}`);
  options.dispose();
  conventions.dispose();
  await runtime.dispose();
}

await main();
