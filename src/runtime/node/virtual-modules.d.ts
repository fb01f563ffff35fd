// Modules made by the build (build/node-guest-bundle.ts).

declare module 'virtual:conch-node-guest' {
  /** The guest environment (src/runtime/node/guest/main.ts bundled with its npm packages), as one script. */
  const source: string;
  export default source;
}
