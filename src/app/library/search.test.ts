import { describe, expect, it } from 'vitest';
import { highlightParts } from './search.svelte';

describe('highlightParts', () => {
  it('marks every match, case-insensitive, keeping the text as it is', () => {
    expect(highlightParts('Left-pad and PAD', 'pad')).toEqual([
      { text: 'Left-', match: false },
      { text: 'pad', match: true },
      { text: ' and ', match: false },
      { text: 'PAD', match: true },
    ]);
    expect(highlightParts('nothing', 'pad')).toEqual([{ text: 'nothing', match: false }]);
    expect(highlightParts('title', '  ')).toEqual([{ text: 'title', match: false }]);
  });
});
