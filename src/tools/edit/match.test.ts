import { describe, expect, it } from 'vitest';
import { applyLocatedEdits, EditMatchError, locateEdits, type EditRequest } from './match';

function applyAll(content: string, edits: EditRequest[]): string {
  return applyLocatedEdits(content, locateEdits(content, edits));
}

function problemsOf(content: string, edits: EditRequest[]): string[] {
  try {
    locateEdits(content, edits);
  } catch (error) {
    if (error instanceof EditMatchError) return error.problems;
    throw error;
  }
  throw new Error('expected the edits to fail');
}

describe('locateEdits: exact matches', () => {
  it('matches every edit against the original text', () => {
    const content = 'alpha\nbeta\ngamma\n';
    const result = applyAll(content, [
      { oldText: 'gamma', newText: 'GAMMA' },
      { oldText: 'alpha', newText: 'beta' },
    ]);
    expect(result).toBe('beta\nbeta\nGAMMA\n');
  });

  it('reports duplicates with their line numbers', () => {
    const [problem] = problemsOf('x = 1\ny = 2\nx = 1\n', [{ oldText: 'x = 1', newText: 'x = 3' }]);
    expect(problem).toContain('edits[0]');
    expect(problem).toContain('2 occurrences');
    expect(problem).toContain('lines 1, 3');
    expect(problem).toContain('Add surrounding lines');
  });

  it('rejects identical replacement and empty oldText', () => {
    const problems = problemsOf('a\nb\n', [
      { oldText: 'a', newText: 'a' },
      { oldText: '', newText: 'c' },
    ]);
    expect(problems[0]).toMatch(/edits\[0\].*identical/);
    expect(problems[1]).toMatch(/edits\[1\].*empty/);
  });

  it('rejects overlapping edits naming both', () => {
    const [problem] = problemsOf('one two three\n', [
      { oldText: 'one two', newText: '1 2' },
      { oldText: 'two three', newText: '2 3' },
    ]);
    expect(problem).toContain('edits[1] overlaps edits[0]');
    expect(problem).toContain('line 1');
  });

  it('allows edits that touch end to start', () => {
    expect(applyAll('abcdef', [
      { oldText: 'abc', newText: 'X' },
      { oldText: 'def', newText: 'Y' },
    ])).toBe('XY');
  });
});

describe('locateEdits: not found', () => {
  it('shows the closest region with line numbers', () => {
    const content = [
      'import x from "x";',
      '',
      'function greet(name) {',
      '  console.log("Hello, " + name);',
      '  return name.length;',
      '}',
      '',
      'export default greet;',
    ].join('\n');
    const [problem] = problemsOf(content, [
      { oldText: 'function greet(nme) {\n  console.log("Helo, " + name);', newText: 'x' },
    ]);
    expect(problem).toContain('edits[0]: oldText was not found');
    expect(problem).toContain('lines 3-4');
    expect(problem).toContain('3| function greet(name) {');
    expect(problem).toContain('4|   console.log("Hello, " + name);');
  });

  it('says so when nothing is similar', () => {
    const [problem] = problemsOf('aaaa\nbbbb\n', [{ oldText: 'zzzqqq', newText: 'x' }]);
    expect(problem).toContain('no similar region');
  });
});

describe('locateEdits: tolerant fallback', () => {
  it('matches despite trailing whitespace and keeps untouched lines byte-identical', () => {
    const content = 'keep me   \nfirst line  \nsecond line\t\nkeep me too  \n';
    const result = applyAll(content, [{ oldText: 'first line\nsecond line', newText: 'replaced' }]);
    expect(result).toBe('keep me   \nreplaced\nkeep me too  \n');
  });

  it('keeps the lines inside a tolerant match that the edit does not change byte-identical', () => {
    const content = 'function f() {  \n  const s = \u201chi\u201d;\n  return s;\t\n}  \n';
    const result = applyAll(content, [
      { oldText: 'function f() {\n  const s = "hi";\n  return s;\n}', newText: 'function f() {\n  const s = "hi";\n  return s + "!";\n}' },
    ]);
    expect(result).toBe('function f() {  \n  const s = \u201chi\u201d;\n  return s + "!";\n}  \n');
  });

  it('matches smart quotes against ASCII quotes', () => {
    const content = 'const s = \u201chello\u201d;\nconst t = \u2018it\u2019s\u2019;\n';
    const result = applyAll(content, [{ oldText: 'const s = "hello";', newText: 'const s = "bye";' }]);
    expect(result).toBe('const s = "bye";\nconst t = \u2018it\u2019s\u2019;\n');
  });

  it('matches en/em dashes, NBSP and compatibility forms', () => {
    const content = 'range 1\u20132 \u2014 ok\nprice\u00a010\nﬁle\n';
    expect(applyAll(content, [{ oldText: 'range 1-2 - ok', newText: 'R' }])).toBe('R\nprice\u00a010\nﬁle\n');
    expect(applyAll(content, [{ oldText: 'price 10', newText: 'P' }])).toBe('range 1\u20132 \u2014 ok\nP\nﬁle\n');
    expect(applyAll(content, [{ oldText: 'file', newText: 'F' }])).toBe('range 1\u20132 \u2014 ok\nprice\u00a010\nF\n');
  });

  it('replaces only the matched part of a line', () => {
    const content = 'say \u201chi\u201d to all  \n';
    expect(applyAll(content, [{ oldText: '"hi"', newText: '"yo"' }])).toBe('say "yo" to all  \n');
  });

  it('matches composed against decomposed accents', () => {
    const content = 'caf\u00e9 au lait\n';
    expect(applyAll(content, [{ oldText: 'cafe\u0301', newText: 'tea' }])).toBe('tea au lait\n');
  });

  it('reports ambiguity in the tolerant view too', () => {
    const [problem] = problemsOf('a \u201cq\u201d\nb\na \u201cq\u201d\n', [{ oldText: 'a "q"', newText: 'x' }]);
    expect(problem).toContain('2 occurrences');
    expect(problem).toContain('lines 1, 3');
  });
});
