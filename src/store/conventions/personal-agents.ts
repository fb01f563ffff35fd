// The person's own subagent definitions, imported in Settings → Subagents and offered in every session: one
// Markdown file each, kept as its text under its file name. Its own small database, like the skills'; records are
// checked as they are read back.
import { createStore, del, entries, set, type UseStore } from 'idb-keyval';
import { writeStore } from '../db';

/** One of the person's definition files: its file name (`reviewer.md`) and its Markdown. */
export type PersonalAgentRecord = { fileName: string; text: string };

export interface PersonalAgentsStore {
  /** Every stored file, by file name. */
  load(): Promise<PersonalAgentRecord[]>;
  put(record: PersonalAgentRecord): Promise<void>;
  remove(fileName: string): Promise<void>;
}

const key = (fileName: string) => `agent/${fileName}`;

/** Opens (lazily) the database `<prefix>conch-agents`. */
export function createPersonalAgentsStore(prefix = ''): PersonalAgentsStore {
  const store = createStore(`${prefix}conch-agents`, 'items');
  const write = (what: string, work: (store: UseStore) => Promise<void>) => writeStore(store, what, work);
  return {
    async load() {
      const records: PersonalAgentRecord[] = [];
      for (const [k, value] of await entries<IDBValidKey, unknown>(store)) {
        if (typeof k === 'string' && k.startsWith('agent/') && isAgentRecord(value)) records.push(value);
      }
      return records.sort((a, b) => a.fileName.localeCompare(b.fileName));
    },
    put: (record) => write(`the subagent ${record.fileName}`, (s) => set(key(record.fileName), { fileName: record.fileName, text: record.text }, s)),
    remove: (fileName) => write(`removing ${fileName}`, (s) => del(key(fileName), s)),
  };
}

function isAgentRecord(value: unknown): value is PersonalAgentRecord {
  if (typeof value !== 'object' || value === null) return false;
  const { fileName, text } = value as { fileName?: unknown; text?: unknown };
  return typeof fileName === 'string' && typeof text === 'string';
}
