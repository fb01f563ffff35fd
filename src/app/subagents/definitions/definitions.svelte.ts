// The page's subagent definitions: the open workspace's (found again before each run and when Settings opens) and
// the person's own (imported .md files, stored in this browser). Sessions ask it for the valid ones at each run's
// start (the session option `subagentDefinitions`); Settings → Subagents lists them all (definitionItems), invalid ones with why.
// Parsing loads with the first look, outside the initial bundle.
import type { Workspace } from '../../../runtime/workspace/workspace';
import type { PersonalAgentRecord, PersonalAgentsStore } from '../../../store';
import { errorText } from '../../error-text';
import type { AgentDefinition } from './agent-definition';
import type { DefinitionList } from './definition-list';
import type { ParsedAgentDefinition } from './parse-agent-definition';

export type SubagentDefinitionsOptions = {
  workspace: Workspace;
  /** The store of the person's own; null where the browser stores nothing (they then last for this page). */
  openStore(): Promise<PersonalAgentsStore | null>;
};

/** A file to import: its name and its bytes. */
export type DefinitionFile = { name: string; data: Uint8Array };

/** A definition file larger than this is not a system prompt: it is refused, not stored. */
export const MAX_DEFINITION_BYTES = 256 * 1024;
const PERSONAL_PREFIX = 'personal/';

export class SubagentDefinitions {
  /** Every definition found, in the order that decides a clash of names; invalid ones with why. */
  list = $state.raw<DefinitionList>({ valid: [], invalid: [] });
  /** The last import or removal that went wrong, for the person. */
  error = $state<string | null>(null);

  private workspaceFound: ParsedAgentDefinition[] = [];
  private personal: PersonalAgentRecord[] = [];
  private store: Promise<PersonalAgentsStore | null> | null = null;
  private loaded: Promise<void> | null = null;

  constructor(private readonly options: SubagentDefinitionsOptions) {}

  /** The definitions a run may offer: the workspace's as they are now and the person's, each name once. */
  async valid(): Promise<AgentDefinition[]> {
    await this.refresh();
    return this.list.valid;
  }

  /** Reads the person's own (once) and finds the workspace's again. */
  async refresh(): Promise<void> {
    await this.load();
    try {
      const { findWorkspaceDefinitions } = await import('./workspace-definitions');
      this.workspaceFound = await findWorkspaceDefinitions(this.options.workspace);
    } catch {
      // No sandbox yet, or one being replaced: the next look finds them.
    }
    await this.relist();
  }

  /** Imports Markdown files as the person's own (a file of the same name is replaced); returns how many, or null with `error` set. */
  async importFiles(files: DefinitionFile[]): Promise<number | null> {
    this.error = null;
    const refused = files.find((f) => !/\.md$/i.test(f.name)) ?? files.find((f) => f.data.byteLength > MAX_DEFINITION_BYTES);
    if (refused) {
      this.error = !/\.md$/i.test(refused.name)
        ? `${refused.name} is not a Markdown file: a subagent definition is a .md file with front matter (name, description, tools).`
        : `${refused.name} is ${Math.round(refused.data.byteLength / 1024)} KB; a definition may be at most ${MAX_DEFINITION_BYTES / 1024} KB. Nothing was imported.`;
      return null;
    }
    const records: PersonalAgentRecord[] = [];
    for (const file of files) {
      try {
        records.push({ fileName: file.name, text: new TextDecoder('utf-8', { fatal: true }).decode(file.data) });
      } catch {
        this.error = `${file.name} is not UTF-8 text. Nothing was imported.`;
        return null;
      }
    }
    await this.refresh();
    try {
      const store = await this.openStore();
      for (const record of records) await store?.put(record);
    } catch (error) {
      this.error = `The definitions could not be stored: ${errorText(error)}`;
      return null;
    }
    const names = new Set(records.map((r) => r.fileName));
    this.personal = [...this.personal.filter((r) => !names.has(r.fileName)), ...records].sort((a, b) => a.fileName.localeCompare(b.fileName));
    await this.relist();
    return records.length;
  }

  /** Removes one of the person's own, by its path as listed (`personal/<file>`). */
  async remove(path: string): Promise<void> {
    this.error = null;
    const fileName = path.startsWith(PERSONAL_PREFIX) ? path.slice(PERSONAL_PREFIX.length) : path;
    await this.load();
    try {
      await (await this.openStore())?.remove(fileName);
    } catch (error) {
      this.error = `${fileName} could not be removed: ${errorText(error)}`;
      return;
    }
    this.personal = this.personal.filter((r) => r.fileName !== fileName);
    await this.relist();
  }

  private load(): Promise<void> {
    this.loaded ??= this.openStore()
      .then(async (store) => {
        if (store) this.personal = await store.load();
      })
      .catch((error) => {
        this.error = `Your subagent definitions could not be read: ${errorText(error)}`;
      });
    return this.loaded;
  }

  private async relist(): Promise<void> {
    const [{ parseAgentDefinition }, { listDefinitions }] = await Promise.all([import('./parse-agent-definition'), import('./definition-list')]);
    const personal = this.personal.map((r) => parseAgentDefinition({ path: `${PERSONAL_PREFIX}${r.fileName}`, text: r.text, source: 'personal' }));
    this.list = listDefinitions([...this.workspaceFound, ...personal]);
  }

  private openStore(): Promise<PersonalAgentsStore | null> {
    this.store ??= this.options.openStore().catch(() => null);
    return this.store;
  }
}
