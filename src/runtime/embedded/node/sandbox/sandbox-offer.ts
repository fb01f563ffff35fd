// What the page hands the embedded runtime for node's browser engine: its sandbox frame (made in src/app, which has
// the DOM), as a fresh MessagePort for each worker the runtime starts, or why there is none (the frame's probe found
// it not isolated, or the browser cannot make one).

import type { ToWorker } from '../../protocol';

/** The page's sandbox frame, offered to each runtime worker. */
export interface NodeSandboxOffer {
  /** A port to a new relay in the frame and the reason the browser engine is chosen; or why it is not. */
  connect(): Promise<{ port: MessagePort; reason: string } | { refused: string }>;
}

/** Tells a newly started worker which engine node runs on; nothing is sent once `current()` says it was replaced. */
export async function offerNodeSandbox(offer: NodeSandboxOffer | undefined, post: (message: ToWorker, transfer?: Transferable[]) => void, current: () => boolean): Promise<void> {
  if (!offer) return;
  let connection: Awaited<ReturnType<NodeSandboxOffer['connect']>>;
  try {
    connection = await offer.connect();
  } catch (error) {
    connection = { refused: `QuickJS: the sandbox frame could not be reached (${error instanceof Error ? error.message : String(error)})` };
  }
  if (!current()) {
    if ('port' in connection) connection.port.close();
    return;
  }
  if ('port' in connection) post({ type: 'node-sandbox', port: connection.port, reason: connection.reason }, [connection.port]);
  else post({ type: 'node-sandbox', reason: connection.refused });
}
