// The person's stored skills and templates read as the workspace's are: each skill's SKILL.md parsed, its path the
// one it has in the sandbox (/skills/<name>/SKILL.md).
import type { PersonalConventionsContents } from '../../store';
import { parseCommandTemplate, type CommandTemplate } from './command-template';
import { parseSkill, type Skill } from './skill';

/** The skills and templates among the person's stored ones, skills placed under `root`. */
export function readPersonal(contents: PersonalConventionsContents, root: string): { skills: Skill[]; templates: CommandTemplate[] } {
  const decoder = new TextDecoder();
  const skills = contents.skills.map((record) => {
    const file = record.files.find((f) => f.path === 'SKILL.md');
    const path = `${root}/${record.name}/SKILL.md`;
    const skill = parseSkill({ folder: record.name, path, text: file ? decoder.decode(file.data) : '', source: 'personal' });
    return file ? skill : { ...skill, invalid: 'The folder has no SKILL.md.' };
  });
  const templates = contents.commands.map((c) => parseCommandTemplate({ fileName: `${c.name}.md`, path: `${c.name}.md`, text: c.text, source: 'personal' }));
  return { skills, templates };
}
