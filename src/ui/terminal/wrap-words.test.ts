import { expect, it } from 'vitest';
import { wrapWords } from './wrap-words';

it('breaks between words for the width, cuts only words longer than a line, keeps line breaks', () => {
  const text = 'Embedded shell (just-bash) in /home/project. The agent runs its commands in this same sandbox.';
  const lines = wrapWords(text, 30).split('\r\n');
  expect(lines.every((l) => l.length <= 30)).toBe(true);
  expect(lines.join(' ')).toBe(text);
  for (const word of text.split(' ')) expect(lines.some((l) => l.split(' ').includes(word)), word).toBe(true);
  expect(wrapWords('a\nsupercalifragilistic', 8).split('\r\n')).toEqual(['a', 'supercal', 'ifragili', 'stic']);
});
