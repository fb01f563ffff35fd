// Stream filters must give the same answer however a stream is cut into chunks.
/** Feeds `text` one character at a time: the worst chunking a stream can produce. */
export function charByChar(push: (chunk: string) => string, flush: () => string, text: string): string {
  let out = '';
  for (const ch of text) out += push(ch);
  return out + flush();
}
