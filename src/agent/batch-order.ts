// Which calls of one assistant message must wait for which: calls overlap only where they cannot observe each
// other's effects, and otherwise keep the order the model wrote them.
// - anything after an 'exec' call (a shell command may read or change anything) waits for it;
// - an 'exec' call waits for every earlier call that touches files (reads too: the command could change what a read
//   returns, and the model wrote the read first);
// - two calls whose paths overlap (the same path, or one a folder above the other) keep their order when at least
//   one of them writes: read-after-write, write-after-read and write-after-write;
// - 'fork' calls overlap each other (each works on its own copy); a fork waits for every earlier write or exec (its
//   copy must include them) but not for reads; any later call that touches files waits for it (its changes land at
//   its end);
// - a call whose tool declares no effects waits for nothing and holds up nothing.
import type { ToolEffects } from './types';

/** True when a call with effects `later` must wait for an earlier call with effects `earlier`. */
export function mustFollow(earlier: ToolEffects | undefined, later: ToolEffects | undefined): boolean {
  if (!earlier || !later) return false;
  if (earlier.kind === 'fork') return later.kind !== 'fork';
  if (later.kind === 'fork') return earlier.kind !== 'read';
  if (earlier.kind === 'exec' || later.kind === 'exec') return true;
  if (earlier.kind === 'read' && later.kind === 'read') return false;
  return earlier.paths.some((a) => later.paths.some((b) => pathsOverlap(a, b)));
}

// The loop knows no sandbox, so it compares the (already absolute, normalized) paths the tools declared by text.
function pathsOverlap(a: string, b: string): boolean {
  return a === b || isBelow(a, b) || isBelow(b, a);
}

function isBelow(path: string, folder: string): boolean {
  return path.startsWith(folder.endsWith('/') ? folder : `${folder}/`);
}

type Entry<T> = { effects: ToolEffects; item: T };

/**
 * The calls of one batch so far, kept by what they may touch, so a new call is compared only with the calls it could
 * have to follow: a read with the earlier writes and exec calls, never with the (often many) earlier reads.
 */
export class BatchOrder<T> {
  private readonly touching: Entry<T>[] = []; // every earlier call that declared effects, in call order
  private readonly changing: Entry<T>[] = []; // those that write or exec

  /** The items of the earlier calls that a call with `effects` must follow (see mustFollow), in call order. */
  mustFollow(effects: ToolEffects | undefined): T[] {
    if (!effects) return [];
    const before: T[] = [];
    for (const earlier of effects.kind === 'read' ? this.changing : this.touching) {
      if (mustFollow(earlier.effects, effects)) before.push(earlier.item);
    }
    return before;
  }

  /** Records a call, in call order; one without effects holds up nothing and is not kept. */
  add(effects: ToolEffects | undefined, item: T): void {
    if (!effects) return;
    const entry = { effects, item };
    this.touching.push(entry);
    if (effects.kind !== 'read') this.changing.push(entry);
  }
}
