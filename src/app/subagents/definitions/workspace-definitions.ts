// The subagent definitions the imported repo carries, where the peers keep them: `.agents/agents/*.md` and
// `.claude/agents/*.md`. Found with the runtime's own search, scoped to those folders, so a large workspace costs
// nothing extra.
import type { Workspace } from '../../../runtime/workspace/workspace';
import { unpackNames } from '../../../runtime/search/name-list';
import { parseAgentDefinition, type ParsedAgentDefinition } from './parse-agent-definition';

const ROOTS = ['.agents', '.claude'];

/** The workspace's definition files, parsed, `.agents/` first, each folder's by name; an unreadable file is left out. */
export async function findWorkspaceDefinitions(workspace: Workspace): Promise<ParsedAgentDefinition[]> {
  const listing = await workspace.readdir(workspace.workdir).catch(() => []);
  const roots = ROOTS.filter((root) => listing.some((entry) => entry.name === root && entry.type === 'dir'));
  const decoder = new TextDecoder();
  const found: ParsedAgentDefinition[] = [];
  for (const root of roots) {
    const result = await workspace.search({ kind: 'names', path: root, glob: 'agents/*.md' });
    if (result.kind !== 'names') continue;
    const paths = unpackNames(result)
      .filter((entry) => entry.type === 'file')
      .map((entry) => workspace.relative(entry.path))
      .filter((path): path is string => path !== undefined)
      .sort();
    for (const path of paths) {
      let text: string;
      try {
        text = decoder.decode(await workspace.readFile(path));
      } catch {
        continue;
      }
      found.push(parseAgentDefinition({ path, text, source: 'workspace' }));
    }
  }
  return found;
}
