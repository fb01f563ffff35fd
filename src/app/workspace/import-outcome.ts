// Words for how an import ended, kept apart from the store so the page can show them without loading it.
import type { SkipReason } from '../../store';
import { errorText } from '../error-text';

const SKIP_WORDS: Record<SkipReason, [string, string]> = {
  symlink: ['symbolic link', 'symbolic links'],
  'os-metadata': ['system metadata file', 'system metadata files'],
  encrypted: ['encrypted entry', 'encrypted entries'],
  'unsupported-compression': ['entry with an unsupported compression', 'entries with an unsupported compression'],
};

/** A sentence about entries left out of an import ('' when none were). */
export function describeSkipped(skipped: { reason: SkipReason }[]): string {
  if (skipped.length === 0) return '';
  const counts = new Map<SkipReason, number>();
  for (const { reason } of skipped) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  const parts = [...counts].map(([reason, n]) => `${n} ${SKIP_WORDS[reason][n === 1 ? 0 : 1]}`);
  return `Skipped ${parts.join(', ')}.`;
}

/** Whether `error` is the person cancelling (the store's ImportCancelledError is named AbortError too). */
export function isCancel(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

/** What a refused session file import says, whether the file was picked, dropped or fetched from a link. */
export function sessionImportFailure(fileName: string, error: unknown): string {
  return `${fileName} was not imported: ${errorText(error)}`;
}
