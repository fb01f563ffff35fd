// The page's skills and command templates: the open workspace's (found again before each run and when the composer's
// menu opens) and the person's own (stored once, placed read-only at /skills/<name>/ in the sandbox before a run),
// with which are on. Settings → Skills renders it; each session asks it for the prompt's skills and its commands.
import type { Workspace } from '../../runtime/workspace/workspace';
import type { PersonalConventionsContents, PersonalConventionsStore } from '../../store';
import type { PromptSkill } from '../prompt/system-prompt';
import { errorText } from '../error-text';
import type { CommandTemplate } from './command-template';
import type { Skill } from './skill';
import type { SlashCommandSet } from './slash-commands';
import type { WorkspaceConventionsCache } from './workspace-conventions';

/** Where the person's own skills are in the sandbox, outside the workspace. */
export const PERSONAL_SKILLS_ROOT = '/skills';

export type SkillState = 'on' | 'off' | 'invalid';
/** A skill as Settings → Skills lists it. */
export type SkillItem = { skill: Skill; state: SkillState; key: string };

/** What a session needs of the conventions: the prompt's skills (made ready in the sandbox) and the commands. */
export interface SessionConventions {
  forRun(): Promise<PromptSkill[]>;
  commands(): SlashCommandSet;
  /** Finds the workspace's again (the composer's menu opened). */
  refresh(): Promise<void>;
}

export type ConventionsOptions = {
  workspace: Workspace;
  /** The store of the person's own; null where the browser stores nothing (they then last for this page). */
  openStore(): Promise<PersonalConventionsStore | null>;
};

export class Conventions implements SessionConventions {
  workspaceSkills = $state.raw<Skill[]>([]);
  workspaceTemplates = $state.raw<CommandTemplate[]>([]);
  personal = $state.raw<PersonalConventionsContents>({ skills: [], commands: [], off: [] });
  /** The person's own, read (parsing loads with the first look, outside the initial bundle). */
  personalSkills = $state.raw<Skill[]>([]);
  private personalTemplates = $state.raw<CommandTemplate[]>([]);
  /** The last import, removal or switch that went wrong, for the person. */
  error = $state<string | null>(null);

  private store: Promise<PersonalConventionsStore | null> | null = null;
  private loaded: Promise<void> | null = null;
  /** What is in the sandbox's /skills now: the personal skills it was made from, in the runtime it was put in. */
  private placed: { skills: PersonalConventionsContents['skills']; runtime: unknown } | null = null;
  /** The workspace's, found again only after a change that can matter. */
  private found: WorkspaceConventionsCache | null = null;

  constructor(private readonly options: ConventionsOptions) {}

  /** Every skill, the workspace's first, with its state. */
  get items(): SkillItem[] {
    const off = new Set(this.personal.off);
    return [...this.workspaceSkills, ...this.personalSkills].map((skill) => {
      const key = `${skill.source}:${skill.name}`;
      return { skill, key, state: skill.invalid ? 'invalid' : off.has(key) ? 'off' : 'on' };
    });
  }

  get templates(): CommandTemplate[] {
    const names = new Set(this.workspaceTemplates.map((t) => t.name));
    return [...this.workspaceTemplates, ...this.personalTemplates.filter((t) => !names.has(t.name))];
  }

  commands(): SlashCommandSet {
    const usable: Skill[] = [];
    const unusableSkills = new Map<string, string>();
    for (const item of this.items) {
      if (item.state === 'on') usable.push(item.skill);
      else if (!usable.some((s) => s.name === item.skill.name)) {
        unusableSkills.set(item.skill.name, item.state === 'off' ? 'it is switched off in Settings → Skills.' : `it is invalid: ${item.skill.invalid}`);
      }
    }
    return { skills: usable, templates: this.templates, unusableSkills };
  }

  /** Reads the person's own from storage (once). */
  load(): Promise<void> {
    this.loaded ??= this.openStore().then(async (store) => {
      if (store) this.personal = await store.load();
      await this.readPersonal();
    }).catch((error) => {
      this.error = `Your skills could not be read: ${errorText(error)}`;
    });
    return this.loaded;
  }

  /** Finds the workspace's again, unless nothing under .agents/ or .claude/ changed since the last time. */
  async refresh(): Promise<void> {
    await this.load();
    try {
      const { WorkspaceConventionsCache } = await import('./workspace-conventions');
      this.found ??= new WorkspaceConventionsCache(this.options.workspace);
      const found = await this.found.current();
      this.workspaceSkills = found.skills;
      this.workspaceTemplates = found.templates;
    } catch {
      // No sandbox yet, or one being replaced: the next run finds them.
    }
  }

  /** The skills for this run's system prompt (on, valid, model-invocable), the person's own placed in the sandbox first. */
  async forRun(): Promise<PromptSkill[]> {
    await this.refresh();
    await this.placePersonal();
    return this.items
      .filter((item) => item.state === 'on' && item.skill.modelInvocable)
      .filter((item) => item.skill.source === 'workspace' || this.placed !== null)
      .map(({ skill }) => ({ name: skill.name, description: skill.description, path: skill.path }));
  }

  /** Imports the skills and templates in a zip (`name`: its file name); returns what was imported, or null with `error` set. */
  async importZip(name: string, data: Uint8Array): Promise<{ skills: number; commands: number } | null> {
    try {
      const { readRepoZip } = await import('../../store');
      const { files } = await readRepoZip(data, { stripTopFolder: false, maxTotalBytes: 50 * 1024 ** 2, maxFiles: 5000 });
      return await this.importFiles(files, name.replace(/\.zip$/i, ''));
    } catch (error) {
      this.error = `${name} could not be imported: ${errorText(error)}`;
      return null;
    }
  }

  /** Imports a picked folder's files (paths as the folder input gives them, the folder's name first). */
  async importFolder(entries: { path: string; data: Uint8Array }[]): Promise<{ skills: number; commands: number } | null> {
    const top = entries[0]?.path.split('/')[0] ?? 'skill';
    try {
      const { readFolderFiles } = await import('../../store');
      return await this.importFiles(readFolderFiles(entries, { maxTotalBytes: 50 * 1024 ** 2, maxFiles: 5000 }).files, top);
    } catch (error) {
      this.error = `The folder ${top} could not be imported: ${errorText(error)}`;
      return null;
    }
  }

  /** Removes one of the person's own skills. */
  async remove(name: string): Promise<void> {
    await this.change(async (store) => {
      await store?.remove('skill', name);
      this.personal = { ...this.personal, skills: this.personal.skills.filter((s) => s.name !== name), off: this.personal.off.filter((k) => k !== `personal:${name}`) };
      await this.readPersonal();
    });
  }

  /** Removes one of the person's own command templates. */
  async removeCommand(name: string): Promise<void> {
    await this.change(async (store) => {
      await store?.remove('command', name);
      this.personal = { ...this.personal, commands: this.personal.commands.filter((c) => c.name !== name) };
      await this.readPersonal();
    });
  }

  /** Switches a skill on or off (`key`: SkillItem.key). */
  async toggle(key: string): Promise<void> {
    const off = this.personal.off.includes(key) ? this.personal.off.filter((k) => k !== key) : [...this.personal.off, key];
    await this.change(async (store) => {
      await store?.setOff(off);
      this.personal = { ...this.personal, off };
    });
  }

  private async importFiles(files: Map<string, Uint8Array>, fallbackName: string): Promise<{ skills: number; commands: number }> {
    const found = (await import('./imported-files')).conventionsIn(files, fallbackName);
    if (found.skills.length === 0 && found.commands.length === 0) {
      throw new Error('it holds no SKILL.md and no commands/*.md. A skill is a folder with a SKILL.md in it.');
    }
    this.error = null;
    await this.load();
    const store = await this.openStore();
    for (const skill of found.skills) await store?.putSkill(skill);
    for (const command of found.commands) await store?.putCommand(command);
    this.personal = {
      ...this.personal,
      skills: mergeByName(this.personal.skills, found.skills),
      commands: mergeByName(this.personal.commands, found.commands),
    };
    await this.readPersonal();
    return { skills: found.skills.length, commands: found.commands.length };
  }

  private async change(work: (store: PersonalConventionsStore | null) => Promise<void>): Promise<void> {
    this.error = null;
    await this.load();
    try {
      await work(await this.openStore());
    } catch (error) {
      this.error = errorText(error);
    }
  }

  private async readPersonal(): Promise<void> {
    const { readPersonal } = await import('./personal-reading');
    const read = readPersonal(this.personal, PERSONAL_SKILLS_ROOT);
    this.personalSkills = read.skills;
    this.personalTemplates = read.templates;
  }

  private openStore(): Promise<PersonalConventionsStore | null> {
    this.store ??= this.options.openStore().catch(() => null);
    return this.store;
  }

  /** Puts the person's skills at /skills/ when the sandbox does not have these ones yet. */
  private async placePersonal(): Promise<void> {
    const { workspace } = this.options;
    const skills = this.personal.skills;
    const runtime = workspace.current;
    if (this.placed?.skills === skills && this.placed.runtime === runtime && (skills.length === 0 || (await workspace.stat(`${PERSONAL_SKILLS_ROOT}/${skills[0].name}`).catch(() => null)))) return;
    const files = skills.flatMap((skill) => skill.files.map((file) => ({ path: `${skill.name}/${file.path}`, data: file.data })));
    try {
      await workspace.placeReadOnly(PERSONAL_SKILLS_ROOT, files);
      this.placed = { skills, runtime };
    } catch {
      // WebContainer's file system ends at the workspace: the person's skills are then not offered to the model.
      this.placed = null;
    }
  }
}

/** `list` with `added` in place of the items of the same names, by name. */
function mergeByName<T extends { name: string }>(list: T[], added: T[]): T[] {
  const names = new Set(added.map((item) => item.name));
  return [...list.filter((item) => !names.has(item.name)), ...added].sort((a, b) => a.name.localeCompare(b.name));
}
