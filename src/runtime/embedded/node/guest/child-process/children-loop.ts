// The guest's asynchronous children, as the event loop sees them: a ref'd child keeps the process alive, and when
// the host's event counter moves, one poll collects what every child printed since and which ones have ended.

import type { ChildEvent } from '../../subprocess/messages';
import { host } from '../host';
import { addLoopSource } from '../globals/timers';
import { forgetListings } from '../modules/package-listings';

export type ChildEnd = Extract<ChildEvent, { kind: 'end' }>;
export type Waiting = { refed: boolean; output(fd: 1 | 2, text: string): void; settle(end: ChildEnd): void };

const running = new Map<number, Waiting>();
let seen = 0;
let installed = false;

/** Waits for child `id` to end (started on the host already). */
export function awaitChild(id: number, child: Waiting): void {
  if (!installed) {
    installed = true;
    // `seen` stays at the counter's start (0): a child that ended before this first wait has moved it already.
    addLoopSource({
      alive: () => [...running.values()].some((waiting) => waiting.refed),
      ready: () => running.size > 0 && host.hostEvents() !== seen,
      run: collect,
    });
  }
  running.set(id, child);
}

function collect(): void {
  seen = host.hostEvents(); // read before the poll: an end after it moves the counter again
  const events = JSON.parse(host.fs('proc.poll', '[]') as string) as ChildEvent[];
  if (events.some((event) => event.kind === 'end')) forgetListings(); // an ended child may have written files
  for (const event of events) {
    const waiting = running.get(event.id);
    if (event.kind === 'output') {
      waiting?.output(event.fd, event.text);
      continue;
    }
    running.delete(event.id);
    waiting?.settle(event);
  }
}
