import { describe, expect, it } from 'vitest';
import { parseSkill } from './skill';

const skill = (text: string, folder = 'pdf-tools') => parseSkill({ folder, path: `.agents/skills/${folder}/SKILL.md`, text, source: 'workspace' });

describe('parseSkill', () => {
  it('reads a quoted colon and a folded multi-line description', () => {
    const s = skill('---\nname: pdf-tools\ndescription: >\n  Fill PDF forms: text fields,\n  check boxes.\n---\n# Steps\n');
    expect(s.invalid).toBeUndefined();
    expect(s.description).toBe('Fill PDF forms: text fields, check boxes.');
    expect(skill('---\nname: pdf-tools\ndescription: "Use when: a PDF is involved"\n---\nbody').description).toBe('Use when: a PDF is involved');
  });

  it('reads a file with a BOM and CRLF line endings', () => {
    const s = skill('\uFEFF---\r\nname: pdf-tools\r\ndescription: Fill forms.\r\n---\r\nLine one\r\nLine two\r\n');
    expect(s.invalid).toBeUndefined();
    expect(s.body).toBe('Line one\nLine two\n');
  });

  it('marks skills invalid with the reason', () => {
    expect(skill('# no front matter').invalid).toMatch(/no `name`/);
    expect(skill('---\nname: pdf-tools\n---\nx').invalid).toMatch(/no `description`/);
    expect(skill('---\nname: PDF_Tools\ndescription: d\n---\n', 'PDF_Tools').invalid).toMatch(/lowercase letters, digits and single hyphens/);
    expect(skill('---\nname: other\ndescription: d\n---\n').invalid).toMatch(/not its folder's name "pdf-tools"/);
    expect(skill(`---\nname: ${'a'.repeat(65)}\ndescription: d\n---\n`, 'a'.repeat(65)).invalid).toMatch(/65 characters long; at most 64/);
    expect(skill(`---\nname: pdf-tools\ndescription: ${'d'.repeat(1025)}\n---\n`).invalid).toMatch(/1025 characters long; at most 1024/);
    expect(skill('---\nname: pdf-tools\ndescription: [unclosed\n---\n').invalid).toMatch(/not valid YAML/);
    expect(skill('---\nname: pdf-tools\ndescription: d\n').invalid).toMatch(/no closing `---`/);
  });

  it('allows a long body with a warning, and honours disable-model-invocation', () => {
    const long = skill(`---\nname: pdf-tools\ndescription: d\n---\n${'line\n'.repeat(600)}`);
    expect(long.invalid).toBeUndefined();
    expect(long.warning).toMatch(/over 500/);
    expect(skill('---\nname: pdf-tools\ndescription: d\ndisable-model-invocation: true\n---\n').modelInvocable).toBe(false);
    expect(skill('---\nname: pdf-tools\ndescription: d\n---\n').modelInvocable).toBe(true);
  });
});
