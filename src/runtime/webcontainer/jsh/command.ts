// One command in a shell of its own: `jsh -c <command>`, with the spawn's own cwd and env (no shell syntax needed
// for either). With `learnCwd` the command is wrapped by CwdMarker so the shell's final folder comes back; that
// wrapper needs `$?`, a variable, `printf` and `$PWD`, which jsh may not all have (the boot probe finds out).

import { CwdMarker } from './cwd-marker';
import type { WebContainerLike } from '../webcontainer-like';

export type JshCommandOptions = {
  /** Workdir-relative folder to run in ('.' for the workdir), as spawn() takes it. */
  cwd: string;
  env: Record<string, string>;
  /** Wrap the command to learn the folder it ends in. */
  learnCwd: boolean;
  /** The command's raw output (escape sequences kept; the marker line taken out). */
  onRaw: (raw: string) => void;
  /** Stops the command (kill). */
  signal: AbortSignal;
};

/** The exit code (null when stopped) and, with learnCwd, the absolute folder the shell ended in when it said. */
export type JshCommandOutcome = { exitCode: number | null; cwd: string | undefined };

// Background jobs (`npm run dev &`) keep the pseudo-terminal open after the shell exits; once the exit code is in,
// output still arriving within this window is kept, then reading stops.
const OUTPUT_DRAIN_AFTER_EXIT_MS = 250;

/** Runs `command` with `jsh -c` and resolves when it exited or was stopped. */
export async function runJshCommand(container: WebContainerLike, command: string, options: JshCommandOptions): Promise<JshCommandOutcome> {
  const marker = options.learnCwd ? new CwdMarker() : undefined;
  const script = marker ? marker.wrap(command) : command;
  const process = await container.spawn('jsh', ['-c', script], { cwd: options.cwd, env: options.env });
  const stopped = new Promise<'stopped'>((resolve) => {
    if (options.signal.aborted) resolve('stopped');
    options.signal.addEventListener('abort', () => resolve('stopped'), { once: true });
  });
  void stopped.then(() => process.kill());

  // The stream is read to its end even after the command is over (a background job may keep writing): cancelling it
  // would make the API's push into it throw, and leaving it unread would pile the output up (it has no backpressure).
  let listening = true;
  const reader = process.output.getReader();
  const reading = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      if (listening) options.onRaw(marker ? marker.push(value) : value);
    }
  })().catch(() => undefined); // a broken stream just ends the output
  const exited = process.exit.then((code) => ({ code }));

  const first = await Promise.race([reading.then(() => 'drained' as const), exited, stopped]);
  let exitCode: number | null = null;
  if (first !== 'stopped') {
    const outcome = await Promise.race([exited, stopped]);
    if (outcome !== 'stopped') {
      exitCode = outcome.code;
      await Promise.race([reading, delay(OUTPUT_DRAIN_AFTER_EXIT_MS), stopped]);
    }
  }
  listening = false;
  if (marker) options.onRaw(marker.flush());
  if (options.signal.aborted) return { exitCode: null, cwd: undefined };
  return { exitCode, cwd: marker?.cwd };
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
