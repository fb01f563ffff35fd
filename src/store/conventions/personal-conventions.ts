// The person's own skills and command templates, imported once in Settings → Skills and available in every session,
// and which skills they switched off. Its own database, like the npm cache: a library of files that belongs to no
// session, and whose schema never has to move with the sessions'. Records are checked as they are read back.
import { createStore, del, entries, set, type UseStore } from 'idb-keyval';
import { writeStore } from '../db';

/** One of the person's skills: every file of its folder, paths relative to it (`SKILL.md`, `scripts/run.sh`). */
export type PersonalSkillRecord = { name: string; files: { path: string; data: Uint8Array }[] };
/** One of the person's command templates: its name (typed as `/name`) and its Markdown. */
export type PersonalCommandRecord = { name: string; text: string };

export type PersonalConventionsContents = {
  skills: PersonalSkillRecord[];
  commands: PersonalCommandRecord[];
  /** Skills switched off, as `<source>:<name>` (`workspace:deploy`, `personal:pdf`). */
  off: string[];
};

export interface PersonalConventionsStore {
  load(): Promise<PersonalConventionsContents>;
  putSkill(skill: PersonalSkillRecord): Promise<void>;
  putCommand(command: PersonalCommandRecord): Promise<void>;
  remove(kind: 'skill' | 'command', name: string): Promise<void>;
  setOff(off: string[]): Promise<void>;
}

const OFF_KEY = 'off';
const skillKey = (name: string) => `skill/${name}`;
const commandKey = (name: string) => `command/${name}`;

/** Opens (lazily) the database `<prefix>conch-conventions`. */
export function createPersonalConventionsStore(prefix = ''): PersonalConventionsStore {
  const store = createStore(`${prefix}conch-conventions`, 'items');
  const write = (what: string, work: (store: UseStore) => Promise<void>) => writeStore(store, what, work);
  return {
    async load() {
      const contents: PersonalConventionsContents = { skills: [], commands: [], off: [] };
      for (const [key, value] of await entries<IDBValidKey, unknown>(store)) {
        if (key === OFF_KEY) contents.off = Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
        else if (typeof key === 'string' && key.startsWith('skill/') && isSkillRecord(value)) contents.skills.push(value);
        else if (typeof key === 'string' && key.startsWith('command/') && isCommandRecord(value)) contents.commands.push(value);
      }
      const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
      contents.skills.sort(byName);
      contents.commands.sort(byName);
      return contents;
    },
    putSkill: (skill) => write(`the skill ${skill.name}`, (s) => set(skillKey(skill.name), skill, s)),
    putCommand: (command) => write(`the command ${command.name}`, (s) => set(commandKey(command.name), command, s)),
    remove: (kind, name) => write(`removing ${name}`, (s) => del(kind === 'skill' ? skillKey(name) : commandKey(name), s)),
    setOff: (off) => write('the skills switched off', (s) => set(OFF_KEY, [...off], s)),
  };
}

function isSkillRecord(value: unknown): value is PersonalSkillRecord {
  if (typeof value !== 'object' || value === null) return false;
  const { name, files } = value as { name?: unknown; files?: unknown };
  return typeof name === 'string' && Array.isArray(files) && files.every((f) => typeof f === 'object' && f !== null && typeof f.path === 'string' && f.data instanceof Uint8Array);
}

function isCommandRecord(value: unknown): value is PersonalCommandRecord {
  if (typeof value !== 'object' || value === null) return false;
  const { name, text } = value as { name?: unknown; text?: unknown };
  return typeof name === 'string' && typeof text === 'string';
}
