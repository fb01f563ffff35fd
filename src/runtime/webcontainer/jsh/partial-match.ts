// Stream filters look for tokens that a chunk boundary may cut in two; the tail that could still grow into the token
// is held back until the next chunk.

/** Length of the longest suffix of `text` that is a proper prefix of `token`. */
export function partialPrefixLength(text: string, token: string): number {
  const max = Math.min(text.length, token.length - 1);
  for (let length = max; length > 0; length--) {
    if (token.startsWith(text.slice(text.length - length))) return length;
  }
  return 0;
}
