// What a zip or a folder the person imports in Settings → Skills holds: every folder with a SKILL.md is a skill (with
// all the files below it: scripts/, references/, assets/), and every Markdown file in a `commands/` folder is a
// command template. So a skill's own folder, a folder of skills, and a repo's `.claude/` all import as expected.
import type { PersonalCommandRecord, PersonalSkillRecord } from '../../store';

export type ImportedConventions = { skills: PersonalSkillRecord[]; commands: PersonalCommandRecord[] };

/**
 * The skills and templates among `files` (paths relative to what was picked); `fallbackName` names a skill whose
 * SKILL.md sits at the very top (the zip's or folder's own name).
 */
export function conventionsIn(files: Map<string, Uint8Array>, fallbackName: string): ImportedConventions {
  const skillFolders = [...files.keys()]
    .filter((path) => path === 'SKILL.md' || path.endsWith('/SKILL.md'))
    .map((path) => path.slice(0, -'SKILL.md'.length))
    .sort((a, b) => b.length - a.length);
  const skills: PersonalSkillRecord[] = [];
  const taken = new Set<string>();
  for (const folder of skillFolders) {
    const name = folder === '' ? fallbackName : folder.slice(0, -1).split('/').pop()!;
    const own = [...files].filter(([path]) => path.startsWith(folder) && !taken.has(path));
    for (const [path] of own) taken.add(path);
    skills.push({ name, files: own.map(([path, data]) => ({ path: path.slice(folder.length), data })) });
  }
  const decoder = new TextDecoder();
  const commands: PersonalCommandRecord[] = [];
  for (const [path, data] of files) {
    const parts = path.split('/');
    if (parts.length < 2 || parts[parts.length - 2] !== 'commands' || !/\.md$/i.test(path) || taken.has(path)) continue;
    commands.push({ name: parts[parts.length - 1].replace(/\.md$/i, ''), text: decoder.decode(data) });
  }
  return { skills: skills.sort((a, b) => a.name.localeCompare(b.name)), commands };
}
