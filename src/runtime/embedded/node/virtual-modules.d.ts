// Modules made by the build (build/node-guest-bundle.ts, build/node-sandbox-bundle.ts).

declare module 'virtual:conch-node-guest' {
  /** The guest environment: its core script, and the npm packages behind Node's core modules, compiled on demand. */
  const guest: { core: string; packages: Record<string, string> };
  export default guest;
}

declare module 'virtual:conch-node-sandbox-engine' {
  /** The browser engine's worker script (one classic script), started from a blob: URL in the sandbox frame. */
  const source: string;
  export default source;
}

declare module 'virtual:conch-node-sandbox-relay' {
  /** The sandbox frame's relay worker script (one classic script), started from a blob: URL in the frame. */
  const source: string;
  export default source;
}
