// What the model is told about its world: the sandbox as it really is, the tools it has, the date, then the
// project's own instructions (the root's AGENTS.md or CLAUDE.md, the subfolders' by path) and the person's.
import { isCodingToolName, toolTraits, type CodingToolName } from '../../tools/catalog';

export type PromptTool = { name: string; description: string };
/** A skill the model may use by itself: it reads the SKILL.md at `path` when the work matches `description`. */
export type PromptSkill = { name: string; description: string; path: string };

export type SystemPromptInput = {
  runtimeKind: 'webcontainer' | 'embedded';
  workdir: string;
  /** A short listing of the workspace root (names; folders end with '/'), possibly truncated. */
  listing: string[];
  tools: PromptTool[];
  date: Date;
  /** The workspace root's instructions (AGENTS.override.md, AGENTS.md or CLAUDE.md), already cut to their budget. */
  agentsMd?: { fileName: string; content: string };
  /** The instruction files of subfolders, by workdir-relative path. */
  nestedInstructions?: string[];
  customInstructions?: string;
  /** The skills that are on and the model may pick (their bodies stay out: the model reads them on demand). */
  skills?: PromptSkill[];
  /** One-line notices for this request only (files changed on disk since the last run), after the listing. */
  notices?: string[];
};

const MAX_LISTING = 60;

const TOOL_GUIDELINES: { readonly [N in CodingToolName]: string } = {
  read: 'Read a file before editing it; use offset and limit for long files instead of reading everything.',
  edit: 'Prefer edit for small changes to existing files; oldText must match the file exactly and be unique.',
  write: 'Use write for new files or complete rewrites only.',
  bash: 'Use bash to run commands; keep them non-interactive and short-lived, and check exit codes.',
  grep: 'Use grep to search file contents instead of reading files one by one.',
  find: 'Use find to locate files by name pattern.',
  ls: 'Use ls to look at a folder.',
  task: 'Hand a self-contained piece of work to task: explore for wide searches and reading (several at once run in parallel), worker for changes; give the full instructions in prompt, since it sees nothing of this conversation, and expect only its conclusion back.',
  todo: 'For work of three or more steps, keep a todo list with todo: send the whole list each time, one item in_progress while you work on it, completed as soon as it is done.',
};

/** Plan mode's section, after everything else: the person wants a plan before anything changes. */
export const PLAN_MODE_SECTION = [
  'You are in Plan mode: investigate, do not change anything, and end with a plan.',
  '- Look with the reading tools (read, grep, find, ls) as much as the task needs; make no edits, write no files, run no commands, and do not start the work.',
  '- End your reply with the plan: the steps in order, the files each one touches, and how you will check the result. Keep the steps in a todo list with todo.',
  '- You cannot leave Plan mode yourself: the person reads the plan and starts it, or asks for changes to it.',
].join('\n');

/** `prompt` with Plan mode's section when `planMode` is on. */
export function withPlanMode(prompt: string, planMode: boolean): string {
  return planMode ? `${prompt}\n\n${PLAN_MODE_SECTION}` : prompt;
}

function describeSandbox(kind: SystemPromptInput['runtimeKind'], workdir: string): string {
  if (kind === 'webcontainer') {
    return [
      `You work inside a WebContainer: a Node.js environment running in the person's browser tab. The workspace is ${workdir}.`,
      'Node.js and npm are available (npm install, npm run, node scripts, dev servers). The shell is jsh, a small bash-like shell:',
      'simple commands joined by &&, ||, ;, | with redirects work; it is reported to lack printf, sleep, loops and variable assignment, so script with node -e instead.',
      'Native binaries, Python and system package managers are not available. Network access is limited to what the browser allows.',
      'There is no git: jsh does not provide one, so do not run git commands; to see what changed, compare files or ask the person to look at the Changes tab.',
    ].join('\n');
  }
  return [
    `You work inside an embedded sandbox: a simulated bash shell with an in-memory file system, running in the person's browser tab. The workspace is ${workdir}.`,
    '`node` runs JavaScript and TypeScript (types stripped) in a sandboxed engine (QuickJS, slower than real Node): `node file.js`, `node -e`/`-p`, CommonJS and ES modules, packages already in node_modules, fs over the workspace, and tests with `node --test` (node:test, assert).',
    '`npm` works: npm install (no arguments, package names, -D), npm ci, npm uninstall, npm run <script>, npm test, npm start, and npx for bins already installed in node_modules/.bin. Packages come from the npm registry set in settings (a cache keeps them for offline use); lifecycle scripts (postinstall and the like) are NOT run, and packages that need a native build (node-gyp) cannot be installed. node_modules is not kept in saved sessions: the first npm or node command after a reload reinstalls it from package-lock.json.',
    'There is no python, and no network besides npm\'s registry: no server can listen (http and net are unavailable), and native modules do not load. child_process works inside this sandbox: spawn, exec, execSync and the like run these same commands (node, npm, git, the shell), so test runners and scripts that shell out work; the Worker of worker_threads does not. The other commands are the shell\'s built-ins (ls, cat, grep, sed, awk, find, head, tail, wc, sort, echo, mkdir, rm, mv, cp and similar), plus git.',
    'git works locally: init, status, add, rm, commit, diff (--cached, --stat), log (--oneline, -p), show, branch, switch/checkout, restore, reset, stash, merge, tag. clone, fetch and pull do not (no network); git push sends what is committed to the repository the session was imported from (GitHub or GitLab), as a branch with a pull or merge request, after the person agrees. When the workspace was imported, its first commit is the imported files, so `git diff` shows every change made since the import.',
    'Do not try to run a dev server or a package that needs native code; say so plainly if the task needs one.',
  ].join('\n');
}

function describeListing(listing: string[]): string {
  if (listing.length === 0) return 'The workspace is empty.';
  const shown = listing.slice(0, MAX_LISTING);
  const more = listing.length > MAX_LISTING ? `\n… and ${listing.length - MAX_LISTING} more entries` : '';
  return `Workspace root:\n${shown.map((name) => `- ${name}`).join('\n')}${more}`;
}

function describeTools(tools: PromptTool[]): string {
  if (tools.length === 0) return 'You have no tools in this session: answer from the conversation only.';
  const lines = tools.map((t) => `- ${t.name}: ${t.description.split('\n')[0]}`);
  const guidelines = tools.flatMap((t) => (isCodingToolName(t.name) ? [TOOL_GUIDELINES[t.name]] : []));
  const hasWriting = tools.some((t) => !toolTraits(t.name).readOnly);
  if (!hasWriting) guidelines.push('You can only look, not change: describe the changes you would make.');
  return `Tools available:\n${lines.join('\n')}\n\nGuidelines:\n${guidelines.map((g) => `- ${g}`).join('\n')}`;
}

function describeNestedInstructions(paths: string[]): string {
  return [
    'Subfolders have their own instructions, for the files under them; each is attached to the first read, edit or write of a file there (read it yourself when that is not enough):',
    ...paths.map((path) => `- ${path}`),
  ].join('\n');
}

function describeSkills(skills: PromptSkill[]): string {
  const lines = skills.map((s) => `- ${s.name}: ${s.description.replace(/\s+/g, ' ')} (${s.path})`);
  return [
    'Skills: instructions for particular kinds of work. Before doing work that matches a skill\'s description, read its SKILL.md with the read tool and follow it; files it mentions are relative to its folder.',
    ...lines,
  ].join('\n');
}

function isoDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The system prompt for one request, assembled in a fixed order so the model always finds things in the same place. */
export function buildSystemPrompt(input: SystemPromptInput): string {
  const sections = [
    'You are Conch, a coding agent working in the person\'s browser. You read, change and run code in a sandbox on their behalf. Be concise; show what you did and what you found.',
    describeSandbox(input.runtimeKind, input.workdir),
    describeListing(input.listing),
    describeTools(input.tools),
    `Today's date: ${isoDay(input.date)}.`,
  ];
  for (const notice of input.notices ?? []) sections.push(notice);
  if (input.agentsMd && input.agentsMd.content.trim() !== '') {
    sections.push(`Project instructions from ${input.agentsMd.fileName}:\n${input.agentsMd.content.trim()}`);
  }
  if (input.nestedInstructions && input.nestedInstructions.length > 0) sections.push(describeNestedInstructions(input.nestedInstructions));
  if (input.skills && input.skills.length > 0) sections.push(describeSkills(input.skills));
  if (input.customInstructions && input.customInstructions.trim() !== '') {
    sections.push(`The person's own instructions:\n${input.customInstructions.trim()}`);
  }
  return sections.join('\n\n');
}
