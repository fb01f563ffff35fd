// What a workspace path is, as every runtime and the search report it.
export type EntryType = 'file' | 'dir' | 'symlink';
