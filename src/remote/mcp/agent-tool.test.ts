import { describe, expect, it } from 'vitest';
import { BatchOrder } from '../../agent/batch-order';
import type { ToolEffects } from '../../agent/types';
import { mcpAgentTool, type ToolCaller } from './agent-tool';
import { compileInputSchema } from './input-schema';
import type { McpToolInfo } from './types';

const caller: ToolCaller = { config: { name: 'srv' }, call: async () => ({ content: [] }) };

function effectsOf(readOnlyHint: boolean): ToolEffects | undefined {
  const compiled = compileInputSchema({ type: 'object', properties: {} });
  if (!compiled.ok) throw new Error(compiled.reason);
  const info: McpToolInfo = { name: 'mcp__srv__t', serverName: 't', description: '', modelDescription: '', cut: false, readOnlyHint };
  return mcpAgentTool(info, compiled.schema, caller).effects?.({} as never);
}

describe('the read-only hint in batch ordering', () => {
  it('read-only MCP calls overlap each other and a file read; others are barriers like bash', () => {
    const order = new BatchOrder<string>();
    const read: ToolEffects = { kind: 'read', paths: ['/project/a.ts'] };
    order.add(read, 'read a.ts');
    expect(order.mustFollow(effectsOf(true))).toEqual([]);
    order.add(effectsOf(true), 'mcp read-only');
    expect(order.mustFollow(effectsOf(true))).toEqual([]);
    expect(order.mustFollow(effectsOf(false))).toEqual(['read a.ts', 'mcp read-only']);
    order.add(effectsOf(false), 'mcp other');
    expect(order.mustFollow(effectsOf(true))).toEqual(['mcp other']);
    expect(order.mustFollow(read)).toEqual(['mcp other']);
  });

  it('declares read with no paths for a hinted tool and exec for any other', () => {
    expect(effectsOf(true)).toEqual({ kind: 'read', paths: [] });
    expect(effectsOf(false)).toEqual({ kind: 'exec', paths: [] });
  });
});
