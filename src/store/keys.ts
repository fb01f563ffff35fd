// Key shapes shared by the stores of one session (entries, snapshots).

export const pad = (seq: number): string => String(seq).padStart(8, '0');
export const entryKey = (id: string, seq: number): string => `${id}/${pad(seq)}`;
export const compactionKey = (id: string, n: number): string => `${id}/compaction/${pad(n)}`;
export const draftKey = (id: string): string => `${id}/draft`;
/** A subagent task of the session, by the parent's tool call it answers. */
export const taskKey = (id: string, toolCallId: string): string => `${id}/task/${toolCallId}`;
export const taskPrefix = (id: string): string => `${id}/task/`;
/** All keys starting with `prefix` ('/' sorts just below '0', so ids never straddle the range). */
export const prefixRange = (prefix: string): IDBKeyRange => IDBKeyRange.bound(prefix, `${prefix}\uffff`);
/** A session's message entries only (their keys are digits; compactions, the draft and tasks sort after them). */
export const messageRange = (id: string): IDBKeyRange => IDBKeyRange.bound(`${id}/0`, `${id}/9\uffff`);
/** A session's local-folder link, in the settings store (a FileSystemDirectoryHandle is kept as it is cloned). */
export const folderLinkKey = (id: string): string => `folder/${id}`;
