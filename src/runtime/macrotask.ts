// Lets the event loop run once: pending timers, messages, input and painting get their turn. A message-channel hop
// rather than setTimeout(0), whose nested calls are held back to 4 ms each; setImmediate where it exists (Node).

/** Resolves after one macrotask. */
export function nextMacrotask(): Promise<void> {
  if (typeof setImmediate === 'function') return new Promise((resolve) => setImmediate(resolve));
  if (typeof MessageChannel !== 'function') return new Promise((resolve) => setTimeout(resolve, 0));
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
