// Errors the storage layer throws; each message is written for the person reading it in the UI.

/** The browser refused a write because its storage quota is used up. Nothing stored earlier was changed. */
export class StorageFullError extends Error {
  override readonly name = 'StorageFullError';
  constructor(what: string, options?: { cause?: unknown }) {
    super(
      `Browser storage is full: could not save ${what}. Nothing saved earlier was lost. ` +
        'Free space by deleting sessions or exporting them (then deleting), and try again.',
      options,
    );
  }
}

/** A zip could not be imported; the current workspace was not touched. */
export class ZipImportError extends Error {
  override readonly name = 'ZipImportError';
  /** The entry at fault, when one is. */
  readonly entry?: string;
  constructor(message: string, entry?: string) {
    super(message);
    this.entry = entry;
  }
}

/** A session file is invalid; nothing was imported. `line` is 1-based in session.jsonl when the fault is there. */
export class SessionFileError extends Error {
  override readonly name = 'SessionFileError';
  readonly line?: number;
  readonly field?: string;
  constructor(message: string, where?: { line?: number; field?: string }) {
    super(message);
    this.line = where?.line;
    this.field = where?.field;
  }
}

/** The import or export was cancelled through its AbortSignal. */
export class ImportCancelledError extends Error {
  override readonly name = 'AbortError';
  constructor(what = 'Import') {
    super(`${what} cancelled; nothing was changed.`);
  }
}
