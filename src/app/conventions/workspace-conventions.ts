// The skills and command templates the imported repo carries, where the peers look for them: `.agents/` and
// `.claude/` at the workspace root. Found with the runtime's own search (run where the files are), not a walk from here.
import type { Workspace } from '../../runtime/workspace/workspace';
import { unpackNames } from '../../runtime/search/name-list';
import { parseCommandTemplate, type CommandTemplate } from './command-template';
import { parseSkill, type Skill } from './skill';

export type WorkspaceConventions = { skills: Skill[]; templates: CommandTemplate[] };

const ROOTS = ['.agents', '.claude'];
const GLOB = '{skills/*/SKILL.md,commands/*.md}';

/** The workspace's skills (`<root>/skills/*\/SKILL.md`) and templates (`<root>/commands/*.md`); an unreadable file is left out. */
export async function findWorkspaceConventions(workspace: Workspace): Promise<WorkspaceConventions> {
  const found: WorkspaceConventions = { skills: [], templates: [] };
  const listing = await workspace.readdir(workspace.workdir).catch(() => []);
  const roots = ROOTS.filter((root) => listing.some((entry) => entry.name === root && entry.type === 'dir'));
  const decoder = new TextDecoder();
  for (const root of roots) {
    const result = await workspace.search({ kind: 'names', path: root, glob: GLOB });
    if (result.kind !== 'names') continue;
    for (const entry of unpackNames(result)) {
      if (entry.type !== 'file') continue;
      const path = workspace.relative(entry.path);
      if (path === undefined) continue;
      let text: string;
      try {
        text = decoder.decode(await workspace.readFile(path));
      } catch {
        continue;
      }
      const parts = path.split('/');
      if (parts[1] === 'skills') found.skills.push(parseSkill({ folder: parts[2], path, text, source: 'workspace' }));
      else found.templates.push(parseCommandTemplate({ fileName: parts[2], path, text, source: 'workspace' }));
    }
  }
  // `.agents/` first: where both roots hold a name, the open standard's folder wins.
  return { skills: uniqueBy(found.skills), templates: uniqueBy(found.templates) };
}

function uniqueBy<T extends { name: string }>(items: T[]): T[] {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(item.name) && seen.add(item.name));
}
