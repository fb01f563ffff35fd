// The skills and command templates the imported repo carries, where the peers look for them: `.agents/` and
// `.claude/` at the workspace root. Found with the runtime's own search (run where the files are), not a walk from here.
import type { Workspace } from '../../runtime/workspace/workspace';
import { unpackNames } from '../../runtime/search/name-list';
import { parseCommandTemplate, type CommandTemplate } from './command-template';
import { parseSkill, type Skill } from './skill';

export type WorkspaceConventions = { skills: Skill[]; templates: CommandTemplate[] };

const ROOTS = ['.agents', '.claude'];
const GLOB = '{skills/*/SKILL.md,commands/*.md}';

/**
 * The workspace's skills and templates, found again only after the watch heard a change under .agents/ or .claude/
 * (or the whole workspace, or another runtime): the prompt asks before every request, and 50 skills take ~70 ms to
 * find and parse on a 20,000-file workspace.
 */
export class WorkspaceConventionsCache {
  private found: { conventions: WorkspaceConventions; runtime: unknown; changes: number } | null = null;
  private changes = 0;
  private stopWatching: (() => void) | null = null;

  constructor(private readonly workspace: Workspace) {}

  /** The conventions as they are now (changes the runtime has not reported yet are asked for first). */
  async current(): Promise<WorkspaceConventions> {
    this.stopWatching ??= this.workspace.watch((paths) => {
      if (paths.some(mayHoldConventions)) this.changes++;
    });
    await this.workspace.settleChanges().catch(() => false);
    const runtime = this.workspace.current;
    if (this.found && this.found.runtime === runtime && this.found.changes === this.changes) return this.found.conventions;
    const changes = this.changes;
    const conventions = await findWorkspaceConventions(this.workspace);
    this.found = { conventions, runtime, changes };
    return conventions;
  }

  dispose(): void {
    this.stopWatching?.();
    this.stopWatching = null;
  }
}

/** A change that can add, alter or remove a workspace skill or template ('' is the whole workspace). */
function mayHoldConventions(path: string): boolean {
  return path === '' || path === '.agents' || path === '.claude' || path.startsWith('.agents/') || path.startsWith('.claude/');
}

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
