// How the remote layer's errors name a moment to the person: on their own clock, as they would read it.

/** HH:MM on the local clock. */
export function clockTime(date: Date): string {
  return `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
}
