// Files by workspace-relative path: what an import reads, a snapshot's tree is built from, and an export writes.
export type FileMap = Map<string, Uint8Array>;
