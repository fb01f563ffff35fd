// What the loopback mocks (the LLM providers, GitHub) share about serving HTTP from Node.
import type { IncomingMessage } from 'node:http';

/** A request's whole body as text. */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (chunk: Buffer) => parts.push(chunk));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}
