// `tty` inside the guest: no descriptor is a terminal (a program's output goes to the shell's buffers), so
// isatty is false and colour libraries (debug, chalk, supports-color) choose plain text, as Node does when piped.

import { nodeError } from '../node-error';

/** Builds the tty module. */
export function createTty(): Record<string, unknown> {
  const notATerminal = (name: string) =>
    class {
      constructor() {
        throw nodeError(Error, 'ERR_CONCH_UNAVAILABLE', `tty.${name}: no terminal is attached to programs in Conch's embedded runtime (isatty() is false)`);
      }
    };
  return {
    isatty: (fd: unknown) => {
      void fd;
      return false;
    },
    ReadStream: notATerminal('ReadStream'),
    WriteStream: notATerminal('WriteStream'),
  };
}
