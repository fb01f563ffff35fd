import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { createEmbeddedRuntime } from '../runtime/embedded';
import { createSessionStore } from '../store';
import { AppState } from './app.svelte';

describe('AppState start-up order', () => {
  it('shows the last stored session before the sandbox boot is let through, then puts its workspace in', async () => {
    const seed = createSessionStore();
    const stored = await seed.importSession({
      title: 'Earlier work',
      model: 'mock-model',
      provider: 'openai-compatible',
      messages: [{ role: 'user', content: 'Prompt from yesterday', timestamp: 1 }],
    });
    seed.close();

    let shownWhenBooting: string[] | null = null;
    const app = new AppState({
      bootRuntime: async (page) => {
        await page.sessionShown();
        shownWhenBooting = page.current?.messages.map((m) => String(m.content)) ?? [];
        return createEmbeddedRuntime();
      },
    });
    await app.init();

    expect(shownWhenBooting).toEqual(['Prompt from yesterday']);
    expect(app.current?.id).toBe(stored.id);
    expect(app.runtime).not.toBeNull();
  });
});
