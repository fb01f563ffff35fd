// One skill (the Agent Skills standard, agentskills.io): a folder holding a SKILL.md whose front matter names it and
// says when to use it, then Markdown instructions. Only the name, the description and the path reach the system
// prompt; the model reads the body when the work matches (progressive disclosure).
import { readFrontMatter } from './front-matter';

/** Where a skill or a command template comes from: the imported repo, or the person's own (Settings → Skills). */
export type ConventionSource = 'workspace' | 'personal';

export type Skill = {
  /** The front matter's name when it is valid, else the folder's. */
  name: string;
  description: string;
  /** Its SKILL.md as the model reaches it: workdir-relative in the workspace, absolute (`/skills/…`) for the person's own. */
  path: string;
  /** The instructions after the front matter. */
  body: string;
  source: ConventionSource;
  /** False when the front matter says `disable-model-invocation: true`: offered only as `/skill:<name>`. */
  modelInvocable: boolean;
  /** Why the skill cannot be used (it is then neither offered to the model nor invocable); absent when valid. */
  invalid?: string;
  /** Something worth knowing that does not stop it (a very long body). */
  warning?: string;
};

export const MAX_SKILL_NAME = 64;
export const MAX_SKILL_DESCRIPTION = 1024;
/** Beyond this many lines a body is still used, with a warning: the standard suggests moving detail to references/. */
export const LONG_SKILL_BODY_LINES = 500;
const NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The skill in the SKILL.md `text` found in folder `folder` (the folder's own name) at `path`. */
export function parseSkill(input: { folder: string; path: string; text: string; source: ConventionSource }): Skill {
  const { data, body, error } = readFrontMatter(input.text);
  const name = data.name;
  const description = data.description;
  const base = {
    name: typeof name === 'string' && name.trim() !== '' ? name.trim() : input.folder,
    description: typeof description === 'string' ? description.trim() : '',
    path: input.path,
    body,
    source: input.source,
    modelInvocable: data['disable-model-invocation'] !== true,
  };
  const invalid = error ? `SKILL.md: ${error}.` : problemWith(name, description, input.folder);
  if (invalid) return { ...base, invalid };
  const lines = body.split('\n').length;
  return lines > LONG_SKILL_BODY_LINES
    ? { ...base, warning: `Its body is ${lines} lines long (over ${LONG_SKILL_BODY_LINES}): consider moving detail into references/.` }
    : base;
}

function problemWith(name: unknown, description: unknown, folder: string): string | undefined {
  if (name === undefined || name === null || (typeof name === 'string' && name.trim() === '')) return 'SKILL.md has no `name` in its front matter.';
  if (typeof name !== 'string') return '`name` must be text.';
  if (name.length > MAX_SKILL_NAME) return `\`name\` is ${name.length} characters long; at most ${MAX_SKILL_NAME} are allowed.`;
  if (!NAME_PATTERN.test(name)) return `\`name\` "${name}" may hold only lowercase letters, digits and single hyphens (e.g. "pdf-tools").`;
  if (name !== folder) return `\`name\` "${name}" is not its folder's name "${folder}": rename one so they match.`;
  if (description === undefined || description === null || (typeof description === 'string' && description.trim() === '')) {
    return 'SKILL.md has no `description` in its front matter: say what the skill does and when to use it.';
  }
  if (typeof description !== 'string') return '`description` must be text.';
  if (description.length > MAX_SKILL_DESCRIPTION) {
    return `\`description\` is ${description.length} characters long; at most ${MAX_SKILL_DESCRIPTION} are allowed.`;
  }
  return undefined;
}
