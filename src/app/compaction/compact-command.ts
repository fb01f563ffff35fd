// The composer's `/compact [focus]` command: compact the context now, with an optional emphasis for the summary.

/** The command in `text`, or null when `text` is an ordinary message. */
export function parseCompactCommand(text: string): { focus?: string } | null {
  const match = /^\/compact(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!match) return null;
  const focus = match[1]?.trim();
  return focus ? { focus } : {};
}
