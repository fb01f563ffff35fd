// The definitions a session may use, from every file read: a name used twice is kept where it was found first (the
// workspace's `.agents/`, then `.claude/`, then the person's own) and the later file is listed as invalid, saying
// which file has the name, so the model is never offered two agents of one name.
import type { AgentDefinition, AgentDefinitionSource, InvalidAgentDefinition } from './agent-definition';
import type { ParsedAgentDefinition } from './parse-agent-definition';

export type DefinitionList = { valid: AgentDefinition[]; invalid: InvalidAgentDefinition[] };

/** A definition as Settings → Subagents lists it: usable or not, with why not, and a note that does not stop it. */
export type DefinitionItem = {
  key: string;
  name: string;
  path: string;
  source: AgentDefinitionSource;
  state: 'valid' | 'invalid';
  definition?: AgentDefinition;
  reason?: string;
  note?: string;
};

/** The valid definitions and the invalid ones among `parsed` (in the order they were found). */
export function listDefinitions(parsed: readonly ParsedAgentDefinition[]): DefinitionList {
  const valid: AgentDefinition[] = [];
  const invalid: InvalidAgentDefinition[] = [];
  for (const entry of parsed) {
    if (!entry.ok) {
      invalid.push(entry.invalid);
      continue;
    }
    const { definition } = entry;
    const first = valid.find((d) => d.name === definition.name);
    if (first) {
      const { name, path, source } = definition;
      invalid.push({ name, path, source, reason: `\`name\` "${name}" is already the name of ${where(first)}, which is used: rename one of them.` });
    } else valid.push(definition);
  }
  return { valid, invalid };
}

/** Every definition for Settings, valid first in the order found; `allowedModels`: the models subagents may use. */
export function definitionItems(list: DefinitionList, allowedModels: readonly string[]): DefinitionItem[] {
  const valid = list.valid.map((definition): DefinitionItem => {
    const note = definition.model && !allowedModels.includes(definition.model)
      ? `Its model "${definition.model}" is not among the models allowed for subagents above.`
      : undefined;
    return { key: `${definition.source}:${definition.path}`, name: definition.name, path: definition.path, source: definition.source, state: 'valid', definition, ...(note ? { note } : {}) };
  });
  const invalid = list.invalid.map((item): DefinitionItem => ({
    key: `${item.source}:${item.path}`,
    name: item.name ?? item.path.split('/').pop()!.replace(/\.md$/i, ''),
    path: item.path,
    source: item.source,
    state: 'invalid',
    reason: item.reason,
  }));
  return [...valid, ...invalid];
}

function where(definition: AgentDefinition): string {
  return definition.source === 'personal' ? `your own ${definition.path.replace(/^personal\//, '')}` : definition.path;
}
