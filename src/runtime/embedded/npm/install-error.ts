// The one kind of error an npm command reports as its own line: what failed and what to do, written for a person
// or a model reading the bash output. Anything else that escapes is a bug and is reported with its stack's message.

export class InstallError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InstallError';
  }
}

/** The text of any error, for an `npm error …` line. */
export function errorLine(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
