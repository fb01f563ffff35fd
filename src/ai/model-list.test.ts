// The live model list of each provider, fetched in its own wire format from the mock provider, and merged with the
// catalog the way the settings dialog shows it.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMockProvider, type MockProvider } from '../../e2e/mock-provider/server';
import { fetchModelList, ModelListError } from './model-list';
import { defaultPick, modelOptions } from './model-options';

let mock: MockProvider;
beforeAll(async () => {
  mock = await startMockProvider();
});
afterAll(() => mock.close());
beforeEach(() => mock.reset());

const TODAY = new Date('2026-12-01T12:00:00Z');

describe('live model list', () => {
  it('Anthropic: follows the pages, keeps the reported limits and marks deprecated models', async () => {
    const many = Array.from({ length: 1205 }, (_, i) => ({ id: `claude-x-${i}`, contextWindow: 100_000 + i, maxTokens: 8000 }));
    mock.setModels('anthropic', [{ id: 'claude-sonnet-5-5', contextWindow: 1_000_000, maxTokens: 128_000 }, ...many]);
    const listed = await fetchModelList({ provider: 'anthropic', baseUrl: mock.url, apiKey: 'k' });
    expect(listed).toHaveLength(1206);
    expect(mock.listRequests.map((r) => r.path)).toEqual(['/v1/models?limit=1000', '/v1/models?limit=1000&after_id=claude-x-998']);
    expect(listed.at(-1)).toMatchObject({ id: 'claude-x-1204', contextWindow: 101_204, maxTokens: 8000 });

    mock.reset();
    mock.setModels('anthropic', [
      { id: 'claude-sonnet-4-5', contextWindow: 200_000, maxTokens: 64_000, lifecycle: 'deprecated', retiresAt: '2026-11-30T00:00:00Z' },
      { id: 'claude-lab-7', name: 'Claude Lab 7', contextWindow: 640_000, maxTokens: 96_000 },
      { id: 'claude-sonnet-5-5', name: 'Claude Sonnet 5.5', contextWindow: 1_000_000, maxTokens: 128_000 },
    ]);
    const options = modelOptions('anthropic', await fetchModelList({ provider: 'anthropic', baseUrl: mock.url, apiKey: 'k' }), TODAY);
    expect(options.map((o) => o.id)).toEqual(['claude-sonnet-5-5', 'claude-lab-7', 'claude-sonnet-4-5']);
    expect(options[0]).toMatchObject({ contextWindow: 1_000_000, maxTokens: 128_000, cost: { input: 2, output: 10 }, listed: true });
    expect(options[1]).toMatchObject({ name: 'Claude Lab 7', contextWindow: 640_000, maxTokens: 96_000, reportedLimits: true });
    expect(options[1].cost).toBeUndefined();
    expect(options[2].deprecated).toEqual({ endOfLife: '2026-11-30', retired: true });
    expect(defaultPick('anthropic', options)).toBe('claude-sonnet-5-5');
  });

  it('OpenAI and an OpenAI-compatible endpoint: ids with the Bearer key, merged with catalog prices', async () => {
    const listed = await fetchModelList({ provider: 'openai', baseUrl: `${mock.url}/v1`, apiKey: 'k' });
    expect(listed.map((m) => m.id)).toContain('gpt-5.6-terra');
    const options = modelOptions('openai', listed, TODAY);
    expect(options[0]).toMatchObject({ id: 'gpt-5.6-terra', contextWindow: 1_050_000, reportedLimits: false });
    expect(defaultPick('openai', options)).toBe('gpt-5.6-terra');

    const compatible = await fetchModelList({ provider: 'openai-compatible', baseUrl: `${mock.url}/v1/`, apiKey: 'k' });
    expect(compatible.map((m) => m.id)).toContain('mock-model');
    expect(defaultPick('openai-compatible', modelOptions('openai-compatible', compatible, TODAY))).toBe('gpt-5-mini');
  });

  it('Gemini: pages, keeps chat models only, with their token limits', async () => {
    mock.setModels('gemini', [
      ...Array.from({ length: 1001 }, (_, i) => ({ id: `gemini-x-${i}`, contextWindow: 32_768, maxTokens: 8192 })),
      { id: 'text-embedding-004' },
      { id: 'gemini-3.5-flash', contextWindow: 1_048_576, maxTokens: 65_536 },
    ]);
    const listed = await fetchModelList({ provider: 'google', baseUrl: mock.url, apiKey: 'k' });
    expect(listed).toHaveLength(1002);
    expect(listed.some((m) => m.id === 'text-embedding-004')).toBe(false);
    expect(listed.at(-1)).toEqual({ id: 'gemini-3.5-flash', name: 'gemini-3.5-flash', contextWindow: 1_048_576, maxTokens: 65_536 });
    expect(mock.listRequests).toHaveLength(2);
  });

  it('says why when the key is missing or the endpoint cannot be reached', async () => {
    const noKey = await fetchModelList({ provider: 'anthropic', baseUrl: mock.url }).catch((e: unknown) => e);
    expect(noKey).toBeInstanceOf(ModelListError);
    expect(noKey).toMatchObject({ kind: 'auth', message: expect.stringMatching(/rejected the key/) });
    const gemini = await fetchModelList({ provider: 'google', baseUrl: mock.url, apiKey: '' }).catch((e: unknown) => e);
    expect(gemini).toMatchObject({ kind: 'auth' });

    const closed = await startMockProvider();
    await closed.close();
    const down = await fetchModelList({ provider: 'openai-compatible', baseUrl: `${closed.url}/v1` }).catch((e: unknown) => e);
    expect(down).toMatchObject({ kind: 'network', message: expect.stringMatching(/CORS/) });
    const noBase = await fetchModelList({ provider: 'openai-compatible', baseUrl: '' }).catch((e: unknown) => e);
    expect(noBase).toMatchObject({ kind: 'format', message: expect.stringMatching(/base URL/) });
  });
});
