// Modules made by the build (build/node-guest-bundle.ts).

declare module 'virtual:conch-node-guest' {
  /** The guest environment: its core script, and the npm packages behind Node's core modules, compiled on demand. */
  const guest: { core: string; packages: Record<string, string> };
  export default guest;
}
