// The part of @webcontainer/api's `WebContainer` the adapter uses, written structurally from the package's type
// declarations (dist/index.d.ts, 1.6.4) so tests can drive the adapter with a Node-backed double.

export type WcDirEnt = { name: string; isFile(): boolean; isDirectory(): boolean };

export interface WcFileSystem {
  readFile(path: string): Promise<Uint8Array>;
  writeFile(path: string, data: string | Uint8Array): Promise<void>;
  readdir(path: string, options: { withFileTypes: true }): Promise<WcDirEnt[]>;
  readdir(path: string): Promise<string[]>;
  mkdir(path: string, options: { recursive: true }): Promise<string | void>;
  rm(path: string, options?: { force?: boolean; recursive?: boolean }): Promise<void>;
  rename(oldPath: string, newPath: string): Promise<void>;
  watch(
    filename: string,
    options: { recursive?: boolean },
    listener: (event: 'rename' | 'change', filename: string | Uint8Array) => void,
  ): { close(): void };
}

export interface WcProcess {
  exit: Promise<number>;
  input: WritableStream<string>;
  output: ReadableStream<string>;
  kill(): void;
  resize(dimensions: { cols: number; rows: number }): void;
}

export type WcSpawnOptions = {
  cwd?: string;
  env?: Record<string, string | number | boolean>;
  output?: boolean;
  terminal?: { cols: number; rows: number };
};

export type WcFileSystemTree = {
  [name: string]: { directory: WcFileSystemTree } | { file: { contents: string | Uint8Array } } | { file: { symlink: string } };
};

export type WcUnsubscribe = () => void;

export interface WebContainerLike {
  readonly fs: WcFileSystem;
  readonly workdir: string;
  spawn(command: string, args: string[], options?: WcSpawnOptions): Promise<WcProcess>;
  export(path: string, options: { format: 'zip'; excludes?: string[]; includes?: string[] }): Promise<Uint8Array>;
  mount(tree: WcFileSystemTree | Uint8Array | ArrayBuffer, options?: { mountPoint?: string }): Promise<void>;
  on(event: 'server-ready', listener: (port: number, url: string) => void): WcUnsubscribe;
  on(event: 'port', listener: (port: number, type: 'open' | 'close', url: string) => void): WcUnsubscribe;
  on(event: 'error', listener: (error: { message: string }) => void): WcUnsubscribe;
  on(event: 'preview-message', listener: (message: unknown) => void): WcUnsubscribe;
  teardown(): void;
}
