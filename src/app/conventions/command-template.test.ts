import { describe, expect, it } from 'vitest';
import { parseCommandTemplate } from './command-template';
import { expandTemplate } from './template-expansion';

describe('expandTemplate', () => {
  it('puts all the arguments in for $ARGUMENTS', () => {
    expect(expandTemplate('Review $ARGUMENTS carefully.', ' src/a.ts and src/b.ts ')).toBe('Review src/a.ts and src/b.ts carefully.');
  });

  it('puts words in for $1…$9, a quoted phrase being one word', () => {
    expect(expandTemplate('Rename $1 to $2.', 'old "new name"')).toBe('Rename old to new name.');
    expect(expandTemplate('[$3]', 'a b')).toBe('[]');
  });

  it('uses ${n:-default} when the word is missing', () => {
    expect(expandTemplate('Test ${1:-everything} with ${2:-vitest}', 'api')).toBe('Test api with vitest');
  });

  it('keeps any other $ as written', () => {
    expect(expandTemplate('Costs $ 5 for $1, $HOME stays, $0 too: ${x}', 'arg')).toBe('Costs $ 5 for arg, $HOME stays, $0 too: ${x}');
    expect(expandTemplate('echo $PATH $', '')).toBe('echo $PATH $');
  });
});

describe('parseCommandTemplate', () => {
  it('reads the optional description and argument hint', () => {
    const t = parseCommandTemplate({ fileName: 'review.md', path: '.claude/commands/review.md', text: '---\ndescription: Review a file\nargument-hint: <file>\n---\nReview $1', source: 'workspace' });
    expect(t).toMatchObject({ name: 'review', description: 'Review a file', argumentHint: '<file>', body: 'Review $1' });
    expect(parseCommandTemplate({ fileName: 'plain.md', path: 'p', text: 'Just $ARGUMENTS', source: 'personal' })).toMatchObject({ description: '', body: 'Just $ARGUMENTS' });
  });
});
