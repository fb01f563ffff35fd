// The servers running in the sandbox and the errors their previews report, from WebContainer's events.

export type PreviewServer = { port: number; url: string };

/** The subset of `WebContainer.on` this class listens to (the real instance satisfies it). */
export interface PreviewEventSource {
  on(event: 'server-ready', listener: (port: number, url: string) => void): () => void;
  on(event: 'port', listener: (port: number, type: 'open' | 'close', url: string) => void): () => void;
  on(event: 'preview-message', listener: (message: unknown) => void): () => void;
}

const MAX_NOTICES = 20;
const MAX_NOTICE_LENGTH = 4000;

/** Reactive list of running servers (sorted by port) and of preview error notices (newest last). */
export class PreviewServers {
  servers = $state<PreviewServer[]>([]);
  notices = $state<string[]>([]);

  /** Starts listening; returns a function that stops listening. */
  attach(source: PreviewEventSource): () => void {
    const unsubscribers = [
      source.on('server-ready', (port, url) => this.open(port, url)),
      source.on('port', (port, type, url) => (type === 'open' ? this.open(port, url) : this.close(port))),
      source.on('preview-message', (message) => this.addNotice(noticeFromPreviewMessage(message))),
    ];
    return () => {
      for (const unsubscribe of unsubscribers) unsubscribe();
    };
  }

  /** Removes one notice (after it was sent to the agent or dismissed). */
  dismissNotice(index: number): void {
    this.notices = this.notices.filter((_, i) => i !== index);
  }

  /** Forgets every server and notice, e.g. when the runtime is replaced. */
  clear(): void {
    this.servers = [];
    this.notices = [];
  }

  private open(port: number, url: string): void {
    if (!Number.isInteger(port) || typeof url !== 'string' || url === '') return;
    const others = this.servers.filter((server) => server.port !== port);
    this.servers = [...others, { port, url }].sort((a, b) => a.port - b.port);
  }

  private close(port: number): void {
    this.servers = this.servers.filter((server) => server.port !== port);
  }

  private addNotice(notice: string | null): void {
    if (notice === null) return;
    // A render loop can log the same error hundreds of times; one notice says it.
    if (this.notices.includes(notice)) return;
    this.notices = [...this.notices, notice].slice(-MAX_NOTICES);
  }
}

/** A person-readable notice for a forwarded preview error, or null when the message is not one. */
export function noticeFromPreviewMessage(message: unknown): string | null {
  if (typeof message !== 'object' || message === null) return null;
  const fields = message as Record<string, unknown>;
  const where = location(fields);
  const stack = typeof fields.stack === 'string' && fields.stack.trim() !== '' ? `\n${fields.stack.trim()}` : '';
  let text: string;
  switch (fields.type) {
    case 'PREVIEW_UNCAUGHT_EXCEPTION':
      text = `Uncaught error in the preview${where}: ${String(fields.message ?? '')}${stackAfter(fields, stack)}`;
      break;
    case 'PREVIEW_UNHANDLED_REJECTION':
      text = `Unhandled promise rejection in the preview${where}: ${String(fields.message ?? '')}${stackAfter(fields, stack)}`;
      break;
    case 'PREVIEW_CONSOLE_ERROR': {
      const args = Array.isArray(fields.args) ? fields.args.map(describeArgument).join(' ') : '';
      text = `console.error in the preview${where}: ${args}${stack}`;
      break;
    }
    default:
      return null;
  }
  return text.length > MAX_NOTICE_LENGTH ? `${text.slice(0, MAX_NOTICE_LENGTH)}…` : text;
}

function location(fields: Record<string, unknown>): string {
  const port = typeof fields.port === 'number' ? `:${fields.port}` : '';
  const path = typeof fields.pathname === 'string' ? fields.pathname : '';
  const search = typeof fields.search === 'string' ? fields.search : '';
  const hash = typeof fields.hash === 'string' ? fields.hash : '';
  const target = `${port}${path}${search}${hash}`;
  return target === '' ? '' : ` (${target})`;
}

// Browsers start a stack with "Error: <message>"; don't repeat the message.
function stackAfter(fields: Record<string, unknown>, stack: string): string {
  const message = String(fields.message ?? '');
  const [firstLine, ...frames] = stack.slice(1).split('\n');
  if (message !== '' && firstLine.includes(message)) return frames.length > 0 ? `\n${frames.join('\n')}` : '';
  return stack;
}

function describeArgument(argument: unknown): string {
  if (typeof argument === 'string') return argument;
  try {
    return JSON.stringify(argument) ?? String(argument);
  } catch {
    return String(argument);
  }
}
