// The mock MCP server's tools: a standard set (a read-only lookup, a writing one, one with progress, a slow one, an
// image, structuredContent, resources, an isError answer, a large answer) and the hostile lists and tools of issue
// 22 section 3. Each tool is its JSON Schema and a handler; the server (server.ts) lists and runs them.
export type ToolContext = {
  signal: AbortSignal;
  progress(progress: number, total: number, message: string): Promise<void>;
};
export type ToolAnswer = { content: Record<string, unknown>[]; structuredContent?: Record<string, unknown>; isError?: boolean };

export type MockTool = {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: { readOnlyHint?: boolean; title?: string };
  run?(args: Record<string, unknown>, context: ToolContext): Promise<ToolAnswer>;
};

// A 1x1 transparent PNG.
export const TINY_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

const text = (value: string): ToolAnswer => ({ content: [{ type: 'text', text: value }] });

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new Error('cancelled'));
    }, { once: true });
  });
}

export const STANDARD_TOOLS: MockTool[] = [
  {
    name: 'lookup',
    description: 'Looks a word up in the mock dictionary.',
    inputSchema: { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'integer', minimum: 1 } }, required: ['query'] },
    annotations: { readOnlyHint: true, title: 'Look up' },
    run: async (args) => text(`found ${String(args.limit ?? 1)} for ${String(args.query)}`),
  },
  {
    name: 'write_note',
    description: 'Saves a note on the mock server.',
    inputSchema: { type: 'object', properties: { text: { type: 'string' }, pinned: { type: 'boolean' } }, required: ['text'], additionalProperties: false },
    run: async (args) => text(`saved: ${String(args.text)}${args.pinned === true ? ' (pinned)' : ''}`),
  },
  {
    name: 'progress',
    description: 'Works in three steps, reporting progress.',
    inputSchema: { type: 'object', properties: {} },
    run: async (_args, context) => {
      // Like a real tool, each step takes a moment, so the card has time to show it.
      for (let step = 1; step <= 3; step++) {
        await context.progress(step, 3, `step ${step}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return text('all steps done');
    },
  },
  {
    name: 'slow',
    description: 'Answers after `ms` milliseconds.',
    inputSchema: { type: 'object', properties: { ms: { type: 'number' } }, required: ['ms'] },
    run: async (args, context) => {
      await wait(Number(args.ms), context.signal);
      return text('slow done');
    },
  },
  {
    name: 'image',
    description: 'Returns a tiny image.',
    inputSchema: { type: 'object', properties: {} },
    annotations: { readOnlyHint: true },
    run: async () => ({ content: [{ type: 'text', text: 'an image:' }, { type: 'image', data: TINY_PNG, mimeType: 'image/png' }] }),
  },
  {
    name: 'weather',
    description: 'Returns structured content only.',
    inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
    run: async (args) => ({ content: [], structuredContent: { city: args.city ?? 'Oslo', celsius: 21 } }),
  },
  {
    name: 'resources',
    description: 'Returns a resource link and an embedded resource.',
    inputSchema: { type: 'object', properties: {} },
    run: async () => ({
      content: [
        { type: 'resource_link', uri: 'file:///notes/a.md', name: 'a.md', mimeType: 'text/markdown' },
        { type: 'resource', resource: { uri: 'file:///notes/b.txt', mimeType: 'text/plain', text: 'contents of b' } },
      ],
    }),
  },
  {
    name: 'fails',
    description: 'Always answers with isError.',
    inputSchema: { type: 'object', properties: {} },
    run: async () => ({ ...text('the mock refused: nothing to do'), isError: true }),
  },
  {
    name: 'big',
    description: 'Returns `lines` numbered lines.',
    inputSchema: { type: 'object', properties: { lines: { type: 'integer' } }, required: ['lines'] },
    run: async (args) => text(Array.from({ length: Number(args.lines) }, (_, i) => `line ${i + 1}`).join('\n')),
  },
];

/** Tools whose answers the server's transport layer replaces with hostile ones (see server.ts). */
export const RAW_HOSTILE_TOOLS = ['hang', 'not_json', 'not_json_rpc', 'bad_event'] as const;

/** Section 3's hostile tools, listed (and, for the raw ones, answered) by a hostile server. */
export function hostileTools(): MockTool[] {
  const empty = { type: 'object', properties: {} };
  return [
    { name: 'huge', description: 'Answers with 50 MB of text.', inputSchema: empty, run: async () => text('x'.repeat(50 * 1024 * 1024)) },
    ...RAW_HOSTILE_TOOLS.map((name) => ({ name, description: `Hostile: ${name}.`, inputSchema: empty })),
    {
      name: 'ref_loop',
      description: 'Its schema loops.',
      inputSchema: { type: 'object', $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } }, properties: { x: { $ref: '#/$defs/a' } } },
    },
    {
      name: 'huge_enum',
      description: 'Its schema holds megabytes of enum.',
      inputSchema: { type: 'object', properties: { pick: { type: 'string', enum: Array.from({ length: 200_000 }, (_, i) => `choice-${i}`) } } },
    },
    { name: '<b>markup</b>', description: '<img src=x onerror=alert(1)> a name with markup', inputSchema: empty, run: async () => text('markup ran') },
    { name: 'same.name', description: 'Collides once cleaned.', inputSchema: empty, run: async () => text('dot') },
    { name: 'same_name', description: 'Collides once cleaned.', inputSchema: empty, run: async () => text('underscore') },
    { name: 'd'.repeat(100), description: 'x'.repeat(5000), inputSchema: empty, run: async () => text('long') },
  ];
}

/** `count` trivial tools (a list over the 500 cap when count > 500). */
export function manyTools(count: number): MockTool[] {
  return Array.from({ length: count }, (_, i) => ({
    name: `tool_${i}`,
    description: `Trivial tool ${i}.`,
    inputSchema: { type: 'object', properties: { n: { type: 'integer' }, label: { type: 'string', enum: ['a', 'b', 'c'] } }, required: ['n'] },
    annotations: { readOnlyHint: i % 2 === 0 },
    run: async (args: Record<string, unknown>) => text(`tool_${i}: ${String(args.n)}`),
  }));
}
