// The room instructions may take in the model's context: 32 KiB in all, the root's in the system prompt plus every
// folder's attached to a tool result (Codex caps its project docs at the same size). What does not fit is cut, and the
// cut says which file holds the rest, so the model can read it when it needs it.

export const INSTRUCTIONS_BUDGET_BYTES = 32 * 1024;

/** How the note on a cut begins. */
export const CUT_NOTE_START = '… (cut here:';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The UTF-8 size of `text`, which is what the budget counts. */
export function byteSize(text: string): number {
  return encoder.encode(text).length;
}

/** `content` cut to `room` bytes with the note, never inside a character, naming `path` for the rest; as is when it fits. */
export function fitToBudget(content: string, room: number, path: string): { text: string; cut: boolean } {
  const bytes = encoder.encode(content);
  if (bytes.length <= room) return { text: content, cut: false };
  const note = `${CUT_NOTE_START} instructions may take ${INSTRUCTIONS_BUDGET_BYTES / 1024} KiB in all; read ${path} for the rest)`;
  let end = Math.max(0, room - byteSize(note) - 1);
  // Back off to the start of a character: UTF-8 continuation bytes are 10xxxxxx.
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  const kept = decoder.decode(bytes.subarray(0, end)).trimEnd();
  return { text: kept === '' ? note : `${kept}\n${note}`, cut: true };
}
