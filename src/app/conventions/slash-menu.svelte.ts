// The composer's `/` menu: open while the draft is a `/` and a word being typed at its very start, filtered by that
// word; arrows move, Enter or Tab picks (the draft becomes `/name `; Enter on a name typed out in full sends it), Escape closes it until the draft changes.
import { slashMenuItems, type SlashCommandSet, type SlashMenuItem } from './slash-commands';

const TYPING_COMMAND = /^\/(\S*)$/;

export class SlashMenu {
  /** What follows the `/`, or null when the menu is closed. */
  query = $state<string | null>(null);
  selected = $state(0);
  private dismissedAt: string | null = null;

  constructor(private readonly commands: () => SlashCommandSet) {}

  get items(): SlashMenuItem[] {
    return this.query === null ? [] : slashMenuItems(this.commands(), this.query);
  }

  get open(): boolean {
    return this.items.length > 0;
  }

  /** Follows the composer's draft; true when the menu has just opened (the caller may refresh the commands). */
  follow(draft: string): boolean {
    const query = draft === this.dismissedAt ? null : (TYPING_COMMAND.exec(draft)?.[1] ?? null);
    if (draft !== this.dismissedAt) this.dismissedAt = null;
    const opened = this.query === null && query !== null;
    if (query !== this.query) this.selected = 0;
    this.query = query;
    return opened;
  }

  /** A key pressed in the composer while the menu is open: the draft to put in when an item was picked, `true` when the key was used. */
  key(key: string, draft: string): string | boolean {
    if (!this.open) return false;
    const count = this.items.length;
    if (key === 'ArrowDown') this.selected = (this.selected + 1) % count;
    else if (key === 'ArrowUp') this.selected = (this.selected - 1 + count) % count;
    else if (key === 'Enter' && draft.trim() === `/${this.items[this.selected].name}`) {
      // The command is typed out already: Enter sends it.
      this.close(draft);
      return false;
    } else if (key === 'Enter' || key === 'Tab') return this.pick(this.selected);
    else if (key === 'Escape') this.close(draft);
    else return false;
    return true;
  }

  /** The draft for item `index`: `/name ` ready for its arguments. */
  pick(index: number): string {
    const item = this.items[index];
    const draft = item ? `/${item.name} ` : '';
    this.query = null;
    return draft;
  }

  close(draft: string): void {
    this.dismissedAt = draft;
    this.query = null;
  }
}
