// Svelte's $state runes for benches that run the session's state classes under plain tsx (no Svelte compiler): in
// Node nothing renders, so a piece of state is just its value. Only the runes those classes use ($state and
// $state.raw; none of them derives or has effects, which a value could not stand in for).
const state = Object.assign(<T>(value: T): T => value, { raw: <T>(value: T): T => value, snapshot: <T>(value: T): T => value });
(globalThis as Record<string, unknown>).$state = state;
