import { describe, expect, it } from 'vitest';
import { conventionsIn } from './imported-files';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('conventionsIn', () => {
  it('finds skills with their files and command templates at any depth', () => {
    const found = conventionsIn(
      new Map([
        ['.claude/skills/pdf/SKILL.md', bytes('pdf')],
        ['.claude/skills/pdf/scripts/fill.py', bytes('py')],
        ['.claude/skills/api/SKILL.md', bytes('api')],
        ['.claude/commands/review.md', bytes('Review $1')],
        ['README.md', bytes('readme')],
      ]),
      'pack',
    );
    expect(found.skills.map((s) => [s.name, s.files.map((f) => f.path)])).toEqual([
      ['api', ['SKILL.md']],
      ['pdf', ['SKILL.md', 'scripts/fill.py']],
    ]);
    expect(found.commands).toEqual([{ name: 'review', text: 'Review $1' }]);
  });

  it('names a skill at the top after what was picked', () => {
    expect(conventionsIn(new Map([['SKILL.md', bytes('x')]]), 'my-skill').skills[0].name).toBe('my-skill');
  });
});
