// One repo import at a time, from the file input, the folder picker or a drop anywhere on the page: reading the
// file, progress in files and bytes, cancel, and a message for each outcome. The workspace is only replaced when
// every check passed (the store refuses a bad zip before anything is written).
import type { SessionLibrary } from '../../app/library/library.svelte';
import { describeSkipped, isCancel } from '../../app/workspace/import-outcome';
import type { Toasts } from '../../app/toasts.svelte';
import type { RepoSource } from '../../app/workspace/workspace-io';
import { errorText } from '../../app/error-text';

export type ImportPhase = 'idle' | 'reading' | 'importing' | 'done' | 'failed' | 'cancelled';

/** The state an import progress bar renders. */
export class RepoImportState {
  phase = $state<ImportPhase>('idle');
  name = $state('');
  files = $state(0);
  totalFiles = $state(0);
  bytes = $state(0);
  totalBytes = $state(0);
  message = $state('');
  private controller: AbortController | null = null;

  /** `toasts`: where each outcome is told (the progress itself stays in the sidebar). */
  constructor(private readonly toasts?: () => Toasts) {}

  get running(): boolean {
    return this.phase === 'reading' || this.phase === 'importing';
  }

  /** Imports a .zip file into the library's open session. */
  async importZip(library: SessionLibrary, file: File): Promise<void> {
    await this.run(library, file.name, async () => ({ kind: 'zip', name: file.name, data: new Uint8Array(await file.arrayBuffer()) }));
  }

  /** Imports the files of a folder picked with webkitdirectory. */
  async importFolder(library: SessionLibrary, files: File[]): Promise<void> {
    const name = files[0]?.webkitRelativePath.split('/')[0] || 'folder';
    await this.run(library, name, async (signal) => {
      const entries: { path: string; data: Uint8Array }[] = [];
      this.totalFiles = files.length;
      this.totalBytes = files.reduce((n, f) => n + f.size, 0);
      for (const file of files) {
        if (signal.aborted) throw new DOMException('cancelled', 'AbortError');
        entries.push({ path: file.webkitRelativePath || file.name, data: new Uint8Array(await file.arrayBuffer()) });
        this.files = entries.length;
        this.bytes += file.size;
      }
      return { kind: 'folder', name, entries };
    });
  }

  cancel(): void {
    this.controller?.abort();
  }

  dismiss(): void {
    if (!this.running) this.phase = 'idle';
  }

  private async run(library: SessionLibrary, name: string, read: (signal: AbortSignal) => Promise<RepoSource>): Promise<void> {
    if (this.running) return;
    const controller = new AbortController();
    this.controller = controller;
    Object.assign(this, { name, files: 0, totalFiles: 0, bytes: 0, totalBytes: 0, message: '' });
    this.phase = 'reading';
    try {
      const source = await read(controller.signal);
      this.phase = 'importing';
      const result = await library.transfer.importRepo(source, {
        signal: controller.signal,
        onProgress: (p) => Object.assign(this, { files: p.files, totalFiles: p.totalFiles, bytes: p.bytes, totalBytes: p.totalBytes }),
      });
      const stripped = result.strippedPrefix ? ` (top folder ${result.strippedPrefix} removed)` : '';
      const files = `${result.files.toLocaleString()} ${result.files === 1 ? 'file' : 'files'}`;
      this.message = `Imported ${name}: ${files}${stripped}. ${describeSkipped(result.skipped)}`.trim();
      this.phase = 'done';
    } catch (error) {
      if (isCancel(error)) {
        this.phase = 'cancelled';
        this.message = 'Import cancelled; the workspace was not changed.';
      } else {
        this.phase = 'failed';
        this.message = errorText(error);
      }
    } finally {
      this.controller = null;
    }
    const failed = this.phase === 'failed';
    this.toasts?.().show({
      kind: failed ? 'error' : this.phase === 'done' ? 'success' : 'info',
      text: failed ? `${name} was not imported: ${this.message}` : this.message,
      key: 'repo-import',
      testId: failed ? 'import-error' : 'import-result',
    });
  }
}
