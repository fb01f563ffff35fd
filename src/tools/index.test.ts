import { describe, expect, it } from 'vitest';
import { createCodingTools, DEFAULT_ACTIVE_TOOLS } from './index';
import { runtimeWith } from './testing/tool-kit';

describe('createCodingTools', () => {
  it('returns the seven tools plus todo with labels, descriptions and field descriptions', async () => {
    const tools = createCodingTools(await runtimeWith());
    expect(tools.map((tool) => tool.name)).toEqual(['read', 'write', 'edit', 'bash', 'grep', 'find', 'ls', 'todo']);
    for (const tool of tools) {
      expect(tool.label.length).toBeGreaterThan(0);
      expect(tool.description.length).toBeGreaterThan(40);
      const properties = (tool.parameters as unknown as { properties: Record<string, { description?: string }> }).properties;
      for (const [field, schema] of Object.entries(properties)) {
        expect(schema.description, `${tool.name}.${field}`).toBeTruthy();
      }
    }
  });

  it('activates read, bash, edit, write, todo and task by default', () => {
    expect([...DEFAULT_ACTIVE_TOOLS]).toEqual(['read', 'bash', 'edit', 'write', 'todo', 'task']);
  });
});
