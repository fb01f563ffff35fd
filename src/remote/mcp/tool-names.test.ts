import { describe, expect, it } from 'vitest';
import { registryToolName, serverNamePart } from './tool-names';

describe('registry names', () => {
  it('are mcp__<server>__<tool> with every other character made _', () => {
    expect(registryToolName('My Docs', 'search.pages', new Set())).toBe('mcp__My_Docs__search_pages');
    expect(registryToolName('x', '<script>alert(1)</script>', new Set())).toBe('mcp__x___script_alert_1___script_');
    expect(registryToolName('', '', new Set())).toBe('mcp__server__tool');
  });

  it('are at most 64 characters, a long server name leaving room for the tool', () => {
    const name = registryToolName('s'.repeat(80), 't'.repeat(80), new Set());
    expect(name).toHaveLength(64);
    expect(name.startsWith(`mcp__${'s'.repeat(24)}__t`)).toBe(true);
    expect(serverNamePart('s'.repeat(80))).toHaveLength(24);
  });

  it('are unique: a collision gets a numbered suffix that still fits', () => {
    const taken = new Set<string>();
    expect(registryToolName('a', 'x.y', taken)).toBe('mcp__a__x_y');
    expect(registryToolName('a', 'x_y', taken)).toBe('mcp__a__x_y_2');
    expect(registryToolName('a', 'x y', taken)).toBe('mcp__a__x_y_3');
    const long = registryToolName('a', 'z'.repeat(70), taken);
    const again = registryToolName('a', 'z'.repeat(71), taken);
    expect(again).toHaveLength(64);
    expect(again).not.toBe(long);
    expect(again.endsWith('_2')).toBe(true);
  });
});
