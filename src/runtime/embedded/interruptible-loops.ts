// just-bash polls its abort signal between statements, but its interpreter never yields to the event loop: a
// `while true; do …; done` keeps the thread busy, so an abort requested by a timer, a click or a message can never
// be delivered. This adds a yield point to the top of every loop body: a tiny command that, once YIELD_EVERY_MS of
// interpretation have passed without one, waits for the event loop to run, letting a pending abort in. Loops that
// finish quickly pay only for the command call.

import { defineCommand, type Command, type StatementNode, type TransformPlugin } from 'just-bash';
import { nextMacrotask } from '../macrotask';

/** How long the interpreter may run before it lets the event loop (and an abort) in. */
export const YIELD_EVERY_MS = 10;

const YIELD_COMMAND = '__conch_yield';
const LOOP_TYPES = new Set(['While', 'Until', 'For', 'CStyleFor']);

export type InterruptibleLoops = { command: Command; plugin: TransformPlugin };

/** The yield command and the transform that puts it at the top of every loop body of a script. */
export function interruptibleLoops(): InterruptibleLoops {
  let lastYield = Date.now();
  const command = defineCommand(YIELD_COMMAND, async (_args, ctx) => {
    if (Date.now() - lastYield >= YIELD_EVERY_MS) {
      await nextMacrotask();
      lastYield = Date.now();
    }
    // Transparent to the script: `$?` at the top of the body is what it would have been without this command.
    return { stdout: '', stderr: '', exitCode: Number(ctx.env.get('?') ?? 0) };
  });
  const plugin: TransformPlugin = {
    name: 'conch-interruptible-loops',
    transform({ ast }) {
      addYieldPoints(ast);
      return { ast };
    },
  };
  return { command, plugin };
}

function addYieldPoints(node: unknown): void {
  if (Array.isArray(node)) {
    for (const child of node) addYieldPoints(child);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  for (const value of Object.values(node)) addYieldPoints(value);
  const loop = node as { type?: unknown; body?: StatementNode[] };
  if (typeof loop.type === 'string' && LOOP_TYPES.has(loop.type) && Array.isArray(loop.body)) {
    loop.body.unshift(yieldStatement());
  }
}

function yieldStatement(): StatementNode {
  return {
    type: 'Statement',
    pipelines: [
      {
        type: 'Pipeline',
        commands: [
          {
            type: 'SimpleCommand',
            assignments: [],
            name: { type: 'Word', parts: [{ type: 'Literal', value: YIELD_COMMAND }] },
            args: [],
            redirections: [],
          },
        ],
        negated: false,
      },
    ],
    operators: [],
    background: false,
  } as StatementNode;
}
