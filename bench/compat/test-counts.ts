// Test counts from a test run's output: TAP summaries (tape, node:test's TAP reporter: `# pass N`, `# fail N`,
// summed over every summary, since a shell loop runs one file at a time) and mocha's (`N passing`, `N failing`).
// Plain assert scripts print neither: their count is null and only the exit code says how they went.

export type TestCounts = { pass: number; fail: number };

/** The counts `output` reports, or null when it has no summary a known runner prints. */
export function parseTestCounts(output: string): TestCounts | null {
  const text = output.replace(/\u001b\[[0-9;]*m/g, '');
  const sum = (pattern: RegExp) => [...text.matchAll(pattern)].reduce((total, match) => total + Number(match[1]), 0);
  const tapPass = /^# pass\s+(\d+)\s*$/gm;
  const tapFail = /^# fail\s+(\d+)\s*$/gm;
  const hasTap = /^# (pass|fail)\s+\d+\s*$/m.test(text);
  if (hasTap) return { pass: sum(tapPass), fail: sum(tapFail) };
  const passing = /^\s*(\d+) passing\b/gm;
  const failing = /^\s*(\d+) failing\b/gm;
  if (/^\s*\d+ (passing|failing)\b/m.test(text)) return { pass: sum(passing), fail: sum(failing) };
  return null;
}

/** The counts as a short text: `12/12`, `10/12`, or `-` for none. */
export function countsText(counts: TestCounts | null): string {
  return counts ? `${counts.pass}/${counts.pass + counts.fail}` : '-';
}
