import { describe, expect, it } from 'vitest';
import { prepareEditArguments } from './arguments';

describe('prepareEditArguments', () => {
  it('returns input already in shape as the same object', () => {
    const raw = { path: 'a.txt', edits: [{ oldText: 'a', newText: 'b' }] };
    expect(prepareEditArguments(raw)).toBe(raw);
  });

  it('leaves non-objects alone', () => {
    expect(prepareEditArguments('x')).toBe('x');
    expect(prepareEditArguments(null)).toBe(null);
  });

  it('folds top-level oldText/newText into edits', () => {
    expect(prepareEditArguments({ path: 'a', oldText: 'x', newText: 'y' })).toEqual({
      path: 'a',
      edits: [{ oldText: 'x', newText: 'y' }],
    });
  });

  it('appends the top-level pair after existing edits', () => {
    const raw = { path: 'a', edits: [{ oldText: '1', newText: '2' }], oldText: 'x', newText: 'y' };
    expect(prepareEditArguments(raw)).toEqual({
      path: 'a',
      edits: [{ oldText: '1', newText: '2' }, { oldText: 'x', newText: 'y' }],
    });
    expect(raw.edits).toHaveLength(1);
  });

  it('wraps a single edit object into an array', () => {
    expect(prepareEditArguments({ path: 'a', edits: { oldText: 'x', newText: 'y' } })).toEqual({
      path: 'a',
      edits: [{ oldText: 'x', newText: 'y' }],
    });
  });

  it('parses edits given as a JSON string', () => {
    expect(prepareEditArguments({ path: 'a', edits: '[{"oldText":"x","newText":"y"}]' })).toEqual({
      path: 'a',
      edits: [{ oldText: 'x', newText: 'y' }],
    });
    expect(prepareEditArguments({ path: 'a', edits: '{"oldText":"x","newText":"y"}' })).toEqual({
      path: 'a',
      edits: [{ oldText: 'x', newText: 'y' }],
    });
  });

  it('leaves a non-JSON edits string alone', () => {
    const raw = { path: 'a', edits: 'replace x with y' };
    expect(prepareEditArguments(raw)).toBe(raw);
  });
});
