// The person's interactive `jsh --osc`: StackBlitz's apps forward keystrokes only once jsh has said it is interactive
// (OSC 654 "interactive"); what is typed before then may be lost or confuse its start-up. This wraps the process so
// its input holds keystrokes until then (in order, none dropped) while its output passes through untouched.

import { JshOscParser } from './osc';
import type { WcProcess } from '../webcontainer-like';

// A jsh that never says so (one that ignores --osc) gets the keystrokes after this long rather than never.
const INTERACTIVE_DEADLINE_MS = 5000;

/** A pty process whose `interactive` settles when jsh is ready for keystrokes (true) or the deadline passed (false). */
export type InteractiveShellProcess = WcProcess & { readonly interactive: Promise<boolean> };

/** Holds `process`'s input until jsh reports that it is interactive. */
export function holdInputUntilInteractive(process: WcProcess, deadlineMs = INTERACTIVE_DEADLINE_MS): InteractiveShellProcess {
  let open!: (said: boolean) => void;
  const interactive = new Promise<boolean>((resolve) => (open = resolve));
  const timer = setTimeout(() => open(false), deadlineMs);
  void interactive.then(() => clearTimeout(timer));
  void process.exit.then(() => open(false), () => open(false));

  const parser = new JshOscParser();
  let seen = false;
  const output = process.output.pipeThrough(
    new TransformStream<string, string>({
      transform(chunk, controller) {
        if (!seen && parser.push(chunk).some((part) => part.kind === 'event' && part.event.type === 'interactive')) {
          seen = true;
          open(true);
        }
        controller.enqueue(chunk);
      },
    }),
  );
  const writer = process.input.getWriter();
  const input = new WritableStream<string>({
    async write(chunk) {
      await interactive;
      await writer.write(chunk);
    },
  });
  return {
    exit: process.exit,
    output,
    input,
    interactive,
    kill: () => process.kill(),
    resize: (size) => process.resize(size),
  };
}
