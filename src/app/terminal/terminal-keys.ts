// What the keys of a terminal send: xterm's input sequences mapped to the line editor's keys, bracketed paste, and the
// length of an escape sequence the editor does not handle (so its bytes are skipped, not typed).

const ESC = '\x1b';
const CSI = `${ESC}[`;

// Input sequences xterm sends for editing keys (normal and application cursor modes).
const KEYS: Record<string, EditKey> = {
  '\r': 'enter',
  '\x7f': 'backspace',
  '\b': 'backspace',
  '\x03': 'interrupt',
  '\x0c': 'clear-screen',
  '\x01': 'home',
  '\x05': 'end',
  '\x15': 'kill-before',
  '\x0b': 'kill-after',
  '\x17': 'kill-word',
  '\x04': 'delete-or-nothing',
  [`${CSI}A`]: 'up',
  [`${ESC}OA`]: 'up',
  [`${CSI}B`]: 'down',
  [`${ESC}OB`]: 'down',
  [`${CSI}C`]: 'right',
  [`${ESC}OC`]: 'right',
  [`${CSI}D`]: 'left',
  [`${ESC}OD`]: 'left',
  [`${CSI}H`]: 'home',
  [`${ESC}OH`]: 'home',
  [`${CSI}1~`]: 'home',
  [`${CSI}F`]: 'end',
  [`${ESC}OF`]: 'end',
  [`${CSI}4~`]: 'end',
  [`${CSI}3~`]: 'delete',
};

export type EditKey =
  | 'enter' | 'backspace' | 'interrupt' | 'clear-screen' | 'home' | 'end' | 'kill-before' | 'kill-after'
  | 'kill-word' | 'delete-or-nothing' | 'up' | 'down' | 'right' | 'left' | 'delete';

export const PASTE_START = `${CSI}200~`;
export const PASTE_END = `${CSI}201~`;

/** The editing key at the start of `data` and how many characters it takes, or null. */
export function matchKey(data: string): { key: EditKey; length: number } | null {
  for (const length of [4, 3, 2, 1]) {
    const key = KEYS[data.slice(0, length)];
    if (key && data.length >= length) return { key, length };
  }
  return null;
}

// Skip escape sequences we do not handle (function keys, Alt+key) rather than inserting their bytes.
export function unknownEscapeLength(data: string): number {
  const csi = /^\x1b\[[0-9;?]*[ -/]*[@-~]/.exec(data);
  if (csi) return csi[0].length;
  const ss3 = /^\x1bO./.exec(data);
  if (ss3) return ss3[0].length;
  return Math.min(data.length, 2);
}

