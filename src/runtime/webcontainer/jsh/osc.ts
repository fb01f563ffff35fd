// `jsh --osc` (StackBlitz's shell) reports its state in-band with OSC 654 sequences, the way StackBlitz's own apps
// read it (bolt.new, bolt.diy, Chef, TutorialKit):
//   ESC ] 654 ; interactive BEL        the shell takes input now (sent once, after start-up)
//   ESC ] 654 ; prompt BEL             a prompt is shown (after start-up, after each command, after Ctrl-C)
//   ESC ] 654 ; exit=<code>:<n> BEL    a command finished with exit code <code>; <n> is not documented anywhere
// This parser takes those sequences out of the raw stream (split across chunks or not) and leaves everything else,
// other escape sequences included, as text.

import { partialPrefixLength } from './partial-match';

export type JshEvent =
  | { type: 'interactive' }
  | { type: 'prompt' }
  | { type: 'exit'; code: number }
  | { type: 'other'; name: string; value: string | undefined };

export type JshStreamPart = { kind: 'text'; text: string } | { kind: 'event'; event: JshEvent };

const INTRODUCER = '\x1b]654;';
// An unterminated sequence longer than this is not one of jsh's (they are a few bytes); it is passed on as text.
const MAX_SEQUENCE = 256;

/** Splits a raw `jsh --osc` output stream into text and OSC 654 events, chunk by chunk. */
export class JshOscParser {
  private held = '';

  /** The parts of `chunk` (plus anything held back from the previous one that is now complete), in order. */
  push(chunk: string): JshStreamPart[] {
    let text = this.held + chunk;
    this.held = '';
    const parts: JshStreamPart[] = [];
    const addText = (value: string): void => {
      if (value !== '') parts.push({ kind: 'text', text: value });
    };
    while (text !== '') {
      const start = text.indexOf(INTRODUCER);
      if (start === -1) {
        const keep = partialPrefixLength(text, INTRODUCER);
        addText(text.slice(0, text.length - keep));
        this.held = text.slice(text.length - keep);
        break;
      }
      addText(text.slice(0, start));
      const bodyStart = start + INTRODUCER.length;
      const end = terminatorAt(text, bodyStart);
      if (end === undefined) {
        if (text.length - start <= MAX_SEQUENCE) {
          this.held = text.slice(start);
        } else {
          addText(text.slice(start, bodyStart));
          text = text.slice(bodyStart);
          continue;
        }
        break;
      }
      parts.push({ kind: 'event', event: parseEvent(text.slice(bodyStart, end.at)) });
      text = text.slice(end.at + end.length);
    }
    return parts;
  }

  /** Text still held at the end of the stream (an unfinished sequence is passed on as it was). */
  flush(): string {
    const rest = this.held;
    this.held = '';
    return rest;
  }
}

/** The OSC 654 sequence for `event`, as jsh writes it (for doubles and tests). */
export function jshOscSequence(event: JshEvent, exitDetail = 0): string {
  switch (event.type) {
    case 'interactive':
    case 'prompt':
      return `${INTRODUCER}${event.type}\x07`;
    case 'exit':
      return `${INTRODUCER}exit=${event.code}:${exitDetail}\x07`;
    case 'other':
      return `${INTRODUCER}${event.name}${event.value === undefined ? '' : `=${event.value}`}\x07`;
  }
}

function parseEvent(body: string): JshEvent {
  const equals = body.indexOf('=');
  const name = equals === -1 ? body : body.slice(0, equals);
  const value = equals === -1 ? undefined : body.slice(equals + 1);
  if (name === 'interactive' && value === undefined) return { type: 'interactive' };
  if (name === 'prompt' && value === undefined) return { type: 'prompt' };
  if (name === 'exit' && value !== undefined) {
    const code = /^(-?\d+)(?::\d+)?$/.exec(value);
    if (code) return { type: 'exit', code: Number(code[1]) };
  }
  return { type: 'other', name, value };
}

/** Where the sequence body starting at `from` ends: BEL, or ESC \ (string terminator). */
function terminatorAt(text: string, from: number): { at: number; length: number } | undefined {
  for (let i = from; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\x07') return { at: i, length: 1 };
    if (ch === '\x1b') {
      if (i + 1 === text.length) return undefined;
      if (text[i + 1] === '\\') return { at: i, length: 2 };
    }
  }
  return undefined;
}
