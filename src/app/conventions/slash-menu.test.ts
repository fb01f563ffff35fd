import { describe, expect, it } from 'vitest';
import { parseCommandTemplate } from './command-template';
import { SlashMenu } from './slash-menu.svelte';
import { EMPTY_COMMANDS } from './slash-commands';

const commands = { ...EMPTY_COMMANDS, templates: [parseCommandTemplate({ fileName: 'fix.md', path: 'fix.md', text: 'Fix $1', source: 'workspace' as const })] };

describe('SlashMenu', () => {
  it('opens on a leading /, filters as the word is typed, and closes once arguments start', () => {
    const menu = new SlashMenu(() => commands);
    expect(menu.follow('/')).toBe(true);
    expect(menu.items.map((i) => i.name)).toEqual(['compact', 'fix']);
    menu.follow('/f');
    expect(menu.items.map((i) => i.name)).toEqual(['fix']);
    menu.follow('/fix 1');
    expect(menu.open).toBe(false);
    menu.follow('say /fix');
    expect(menu.open).toBe(false);
  });

  it('moves with the arrows, picks with Enter or Tab, and stays closed after Escape until the draft changes', () => {
    const menu = new SlashMenu(() => commands);
    menu.follow('/');
    expect(menu.key('ArrowDown', '/')).toBe(true);
    expect(menu.key('Enter', '/')).toBe('/fix ');
    menu.follow('/');
    expect(menu.key('ArrowUp', '/')).toBe(true);
    expect(menu.key('Tab', '/')).toBe('/fix ');
    menu.follow('/');
    expect(menu.key('Escape', '/')).toBe(true);
    menu.follow('/');
    expect(menu.open).toBe(false);
    menu.follow('/c');
    expect(menu.items.map((i) => i.name)).toEqual(['compact']);
    expect(menu.key('a', '/c')).toBe(false);
    menu.follow('/compact');
    expect(menu.key('Enter', '/compact')).toBe(false);
    expect(menu.open).toBe(false);
  });
});
