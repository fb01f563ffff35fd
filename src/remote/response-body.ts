// Reading a host's answers: JSON that must be JSON, and a body read whole but refused as soon as it passes the bytes
// it may have (a server that sends more than it said, or a download that would fill the tab's memory, is stopped
// early, not after the whole body).

/** The body as JSON; throws `notJson()` when it is not. */
export async function readJsonBody(response: Response, notJson: () => Error): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    throw notJson();
  }
}

/** The body's bytes; throws `tooLarge()` once more than `maxBytes` arrived. `onBytes` hears the running count. */
export async function readCappedBody(response: Response, maxBytes: number, tooLarge: () => Error, onBytes?: (bytes: number) => void): Promise<Uint8Array> {
  const reader = response.body?.getReader();
  if (!reader) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let length = 0;
  onBytes?.(0);
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    length += chunk.value.length;
    if (length > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(chunk.value);
    onBytes?.(length);
  }
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}
