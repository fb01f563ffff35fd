// tsconfig.core.json maps every `svelte` module here: the core folders (src/ai, src/agent, src/tools, src/runtime,
// src/store) must not depend on Svelte, so any import from it finds nothing and fails the check.
export {};
