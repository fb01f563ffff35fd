import { afterEach, describe, expect, it } from 'vitest';
import { bootWebContainer, forgetWebContainerBootForTests } from './boot';
import type { WebContainerLike } from './webcontainer-like';

afterEach(() => forgetWebContainerBootForTests());

function fakeApi(boot: (options: unknown) => Promise<WebContainerLike>) {
  const calls: unknown[] = [];
  return {
    calls,
    load: async () => ({
      WebContainer: {
        boot: (options: unknown) => {
          calls.push(options);
          return boot(options);
        },
      },
    }),
  };
}

describe('bootWebContainer', () => {
  it('boots once per page, even when asked again while booting (hot reload)', async () => {
    const container = { workdir: '/home/project' } as WebContainerLike;
    const api = fakeApi(async () => container);
    const first = bootWebContainer({}, api.load);
    const second = bootWebContainer({}, api.load);
    expect(await first).toBe(container);
    expect(await second).toBe(container);
    expect(await bootWebContainer({}, api.load)).toBe(container);
    expect(api.calls).toEqual([{ coep: 'require-corp', workdirName: 'project', forwardPreviewErrors: true }]);
  });

  it('passes the coep and workdir options through', async () => {
    const api = fakeApi(async () => ({ workdir: '/home/app' }) as WebContainerLike);
    await bootWebContainer({ coep: 'credentialless', workdirName: 'app', forwardPreviewErrors: false }, api.load);
    expect(api.calls).toEqual([{ coep: 'credentialless', workdirName: 'app', forwardPreviewErrors: false }]);
  });

  it('forgets a failed boot so a later call can try again', async () => {
    let attempts = 0;
    const api = fakeApi(async () => {
      attempts += 1;
      if (attempts === 1) throw new Error('offline');
      return { workdir: '/home/project' } as WebContainerLike;
    });
    await expect(bootWebContainer({}, api.load)).rejects.toThrow('offline');
    await expect(bootWebContainer({}, api.load)).resolves.toMatchObject({ workdir: '/home/project' });
    expect(attempts).toBe(2);
  });
});
