// The person's own skills placed into a new sandbox: 20 skills of 50 KB each (a SKILL.md, a script and references)
// put read-only at /skills/ in a fresh embedded runtime, in-process, the way Conventions does before a run.
// Target: at most 50 ms. Prints figures; asserts nothing.
import { createEmbeddedRuntime } from '../src/runtime/embedded';
import { Workspace } from '../src/runtime/workspace/workspace';

const SKILLS = 20;
const SKILL_BYTES = 50 * 1024;
const RUNS = 15;

function skillFiles(): { path: string; data: Uint8Array }[] {
  const encoder = new TextEncoder();
  const files: { path: string; data: Uint8Array }[] = [];
  for (let i = 0; i < SKILLS; i++) {
    const name = `skill-${i}`;
    const header = `---\nname: ${name}\ndescription: Bench skill ${i}\n---\n`;
    const parts = [
      { path: `${name}/SKILL.md`, text: header + 'Step. '.repeat((SKILL_BYTES * 0.4) / 6) },
      { path: `${name}/scripts/run.sh`, text: 'echo run\n'.repeat((SKILL_BYTES * 0.2) / 9) },
      { path: `${name}/references/guide.md`, text: 'Reference line.\n'.repeat((SKILL_BYTES * 0.4) / 16) },
    ];
    for (const part of parts) files.push({ path: part.path, data: encoder.encode(part.text) });
  }
  return files;
}

const files = skillFiles();
const total = files.reduce((n, f) => n + f.data.length, 0);
const times: number[] = [];
for (let run = 0; run < RUNS; run++) {
  const workspace = new Workspace();
  workspace.attach(createEmbeddedRuntime());
  const started = performance.now();
  await workspace.placeReadOnly('/skills', files);
  times.push(performance.now() - started);
  await workspace.current?.dispose();
}
const sorted = [...times].sort((a, b) => a - b);
console.log(`placing ${SKILLS} skills (${(total / 1024).toFixed(0)} KB, ${files.length} files) into a new sandbox: median ${sorted[Math.floor(RUNS / 2)].toFixed(1)} ms, first ${times[0].toFixed(1)} ms, max ${sorted[RUNS - 1].toFixed(1)} ms (target ≤ 50 ms)`);
