// Key shapes shared by the stores of one session (entries, snapshots).

export const pad = (seq: number): string => String(seq).padStart(8, '0');
export const entryKey = (id: string, seq: number): string => `${id}/${pad(seq)}`;
/** All keys starting with `prefix` ('/' sorts just below '0', so ids never straddle the range). */
export const prefixRange = (prefix: string): IDBKeyRange => IDBKeyRange.bound(prefix, `${prefix}\uffff`);
