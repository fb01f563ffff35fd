// The loop bench's scripted run, the same for Conch and Pi: `messages` assistant messages of `calls` tool calls each
// (then one closing text reply), every call a no-op read-like tool on `{ path: string, count: integer }` whose
// arguments need coercion ("7" -> 7).
export type LoopShape = { calls: number; messages: number };

/** One timed run of a shape, in milliseconds; throws when a call failed or the counts are off. */
export type LoopRun = (shape: LoopShape) => Promise<number>;

export const LOOP_ARGUMENTS: Record<string, unknown> = Object.freeze({ path: 'src/a.ts', count: '7' });
