// Everything the WebContainer double has to GUESS, in one place. The double follows @webcontainer/api 1.6.4's type
// declarations and its dist (index.js) wherever they say how the real thing behaves; what neither shows (jsh is
// closed source and nothing here reaches stackblitz.com) is decided below, each with where the guess comes from.
// When a person runs the manual check page (check-webcontainer.html) against the real thing and a check disagrees,
// fix the guess here first.
//
// Known from the dist, so NOT guesses (implemented in the double without a note):
// - output chunks are decoded one by one with a shared TextDecoder and no `stream: true`, so a UTF-8 character cut by
//   a chunk boundary becomes U+FFFD; the output stream has no backpressure (enqueue on every push);
// - `input` has no close handler (closing it sends no end-of-file) and writes after exit are dropped with a
//   console warning ("This process already exited"); `kill()` after exit does nothing;
// - `fs.watch` registers asynchronously (events before the registration settles are not delivered);
// - a binary `mount` transfers (detaches) the passed buffer; `teardown()` throws "WebContainer already torn down"
//   the second time;
// - boot: the boot iframe's promise is cached for the page and never rejects (offline it never settles), a boot
//   while another is pending waits for it, a second instance throws "Only a single WebContainer instance can be
//   booted".

import { jshOscSequence } from '../webcontainer/jsh/osc';

// ---- jsh --osc: the OSC 654 protocol (sequences from bolt.new/bolt.diy/Chef/TutorialKit; their timing guessed) ----

/** GUESS: the order at start-up: the first prompt is drawn, then `interactive` is sent once. */
export const startUpSequence = (cwd: string): string => promptSequence(cwd) + jshOscSequence({ type: 'interactive' });

/**
 * GUESS: the prompt: the `prompt` sequence, then the folder on its own line and `❯ ` (the layout seen in
 * webcontainer-core issue #97's transcript; "~" for the home folder).
 */
export const promptSequence = (cwd: string): string =>
  `${jshOscSequence({ type: 'prompt' })}\r\n\x1b[1;34m${cwd}\x1b[0m\r\n\x1b[35m❯\x1b[0m `;

/**
 * GUESS: the second number of `exit=<code>:<n>` (bolt.diy's regex reads it and ignores it). The double sends how many
 * commands the session has run.
 */
export const exitSequence = (code: number, commandsRun: number): string => jshOscSequence({ type: 'exit', code }, commandsRun);

/** GUESS: Ctrl-C at an idle prompt prints ^C and a new prompt, with no `exit` sequence. */
export const INTERRUPT_ECHO = '^C\r\n';

/** GUESS: Ctrl-C during a command stops it; the shell reports this exit code, then a new prompt. */
export const INTERRUPTED_EXIT_CODE = 130;

/** GUESS: `exit N` typed at the interactive prompt ends jsh itself with code N, without an `exit` sequence. */
export const EXIT_BUILTIN_ENDS_SESSION = true;

/** GUESS: keystrokes written before jsh is interactive are lost (why StackBlitz's apps wait for the sequence). */
export const INPUT_BEFORE_INTERACTIVE_IS_LOST = true;

/** GUESS: the line editor echoes printable keystrokes as typed, and Enter as CRLF (no syntax colouring). */
export const ENTER_ECHO = '\r\n';

// ---- jsh's grammar: what it is reported not to support, and how it fails ----

/** webcontainer-core #1165 (2023): `/bin` has no `printf` and no `sleep`. GUESS: the exit code, 127. */
export const MISSING_COMMANDS: readonly string[] = ['printf', 'sleep'];
export const commandNotFound = (name: string) => ({ message: `jsh: command not found: ${name}`, exitCode: 127 });

/** webcontainer-core #531 (open), a duplicate of #97: a variable assignment fails like this. GUESS: exit code 1. */
export const ASSIGNMENT_FAILURE = { message: "Cannot read properties of undefined (reading 'replace')", exitCode: 1 };

/** webcontainer-core #163: `export NAME=value` fails like this. GUESS: exit code 1. */
export const EXPORT_FAILURE = { message: 'e.Assigns is not iterable', exitCode: 1 };

/**
 * GUESS: compound commands (loops, if, case, functions, subshells, groups), command substitution and here-documents
 * are not part of jsh's grammar. The message is jsh's own, seen in webcontainer-core #1079 for a binary run as a
 * script; the exit code is a guess.
 */
export const GRAMMAR_FAILURE = { message: 'jsh: a command can only contain words and redirects', exitCode: 1 };

/** GUESS: `jsh -c` runs a script's lines in order and stops at the first one it cannot run. */
export const SCRIPT_STOPS_AT_FIRST_FAILURE = true;

// ---- processes ----

/** GUESS: a killed process's `exit` settles, with this code (the dist only forwards kill()). */
export const KILLED_EXIT_CODE = 130;

/**
 * GUESS: `spawn`'s cwd is relative to the workdir (the typings say so); an absolute cwd is taken as relative to the
 * workdir too (the pessimistic reading), and a missing folder makes spawn reject.
 */
export const ABSOLUTE_CWD_IS_WORKDIR_RELATIVE = true;

/**
 * GUESS (a limitation): processes get the host's environment plus the spawn's `env`; the real one has its own
 * (PATH, HOME=/home, ...). The terminal size is applied with `stty` when a command starts; resize() applies to the
 * commands started after it.
 */
export const HOST_ENVIRONMENT = true;

// ---- file system ----

/**
 * GUESS: `export`'s `excludes` are matched (minimatch, dot files included) against each file's and folder's
 * workdir-relative path, a matched folder being skipped whole; the zip holds files only, no folder entries.
 * The glob semantics are undocumented: the double can also be told to ignore excludes (`exportIgnoresExcludes`).
 */
export const EXPORT_ZIP_HAS_FOLDER_ENTRIES = false;

/** GUESS: watch reports names relative to the watched folder (Node's semantics), as strings. */
export const WATCH_NAMES_ARE_RELATIVE = true;
