import { describe, expect, it } from 'vitest';
import { defaultSettings, parseSettings, withApprovalMode } from './settings';

describe('settings: the todo tool and Plan mode', () => {
  it('switches the todo list on for settings saved before it existed, keeping what the person chose', () => {
    const before = { ...defaultSettings(), activeTools: ['read', 'bash', 'grep'], knownTools: undefined };
    expect(parseSettings(before).activeTools).toEqual(['read', 'bash', 'grep', 'todo', 'task']);
    // Saved since, with todo switched off: it stays off.
    const since = parseSettings({ ...defaultSettings(), activeTools: ['read', 'bash'] });
    expect(since.activeTools).toEqual(['read', 'bash']);
    expect(parseSettings(since).activeTools).toEqual(['read', 'bash']);
    expect(defaultSettings().activeTools).toContain('todo');
    expect(parseSettings({}).activeTools).toEqual(defaultSettings().activeTools);
  });

  it('keeps Plan mode and the mode to go back to across a reload; an unknown mode is auto', () => {
    const planned = withApprovalMode({ ...defaultSettings(), approvalMode: 'ask' }, 'plan');
    expect(planned).toMatchObject({ approvalMode: 'plan', modeBeforePlan: 'ask' });
    expect(parseSettings(JSON.parse(JSON.stringify(planned)))).toMatchObject({ approvalMode: 'plan', modeBeforePlan: 'ask' });
    // Choosing Plan again, or leaving it, does not forget where Start goes.
    expect(withApprovalMode(planned, 'plan').modeBeforePlan).toBe('ask');
    expect(withApprovalMode(planned, 'auto')).toMatchObject({ approvalMode: 'auto', modeBeforePlan: 'ask' });
    expect(parseSettings({ approvalMode: 'yolo', modeBeforePlan: 'plan' })).toMatchObject({ approvalMode: 'auto', modeBeforePlan: 'auto' });
  });
});
