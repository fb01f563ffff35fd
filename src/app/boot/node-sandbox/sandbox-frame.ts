// node's browser engine from the page's side: the hidden sandbox frame (frame-document.ts), its probe run once, and a
// fresh MessagePort to a relay in the frame for each runtime worker (NodeSandboxOffer). The frame's messages are
// accepted only from the frame itself, from its opaque origin; nothing it says is trusted beyond the probe's checks.

import type { NodeSandboxOffer } from '../../../runtime/embedded/node/sandbox/sandbox-offer';
import { sandboxFrameDocument, type FrameProbe } from './frame-document';
import { probeVerdict, type ProbeVerdict } from './probe-verdict';

const PROBE_TIMEOUT_MS = 5000;

/** The sandbox frame in `document`, and its offer to the embedded runtime; `onVerdict` hears the probe's verdict. */
export function openNodeSandboxFrame(document: Document, onVerdict: (verdict: ProbeVerdict) => void = () => {}): NodeSandboxOffer {
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.setAttribute('allow', 'cross-origin-isolated');
  frame.setAttribute('aria-hidden', 'true');
  frame.setAttribute('tabindex', '-1');
  frame.title = 'node sandbox';
  frame.dataset.testid = 'node-sandbox-frame';
  frame.hidden = true;
  frame.srcdoc = sandboxFrameDocument();

  const fromFrame = (handler: (data: { type?: string; probe?: FrameProbe }) => void) => {
    const listener = (event: MessageEvent) => {
      if (event.source === frame.contentWindow && event.origin === 'null') handler(event.data as { type?: string; probe?: FrameProbe });
    };
    window.addEventListener('message', listener);
    return () => window.removeEventListener('message', listener);
  };
  const verdict = new Promise<ProbeVerdict>((resolve) => {
    const timer = setTimeout(() => finish(undefined), PROBE_TIMEOUT_MS);
    const stop = fromFrame((data) => {
      if (data?.type === 'frame-ready') frame.contentWindow?.postMessage({ type: 'probe' }, '*');
      else if (data?.type === 'probe-result') finish(data.probe);
    });
    function finish(probe: FrameProbe | undefined) {
      clearTimeout(timer);
      stop();
      resolve(probeVerdict(probe));
    }
  });
  void verdict.then(onVerdict);
  document.body.append(frame);
  const relay = import('virtual:conch-node-sandbox-relay').then((module) => module.default);

  return {
    async connect() {
      const found = await verdict;
      if (!found.ok) return { refused: found.reason };
      const channel = new MessageChannel();
      frame.contentWindow?.postMessage({ type: 'connect', relay: await relay, port: channel.port2 }, '*', [channel.port2]);
      return { port: channel.port1, reason: found.reason };
    },
  };
}
