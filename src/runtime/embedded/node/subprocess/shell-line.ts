// A word as the shell reads it back unchanged: single-quoted unless it is plainly safe.

const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** `word` quoted for a shell line, so that the shell sees exactly one word with no expansion. */
export function shellQuote(word: string): string {
  if (SAFE_WORD.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
