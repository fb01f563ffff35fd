import { afterEach, describe, expect, it } from 'vitest';
import { createEmbeddedRuntime } from '../../runtime/embedded';
import { createWebContainerApiDouble } from '../../runtime/testing/webcontainer-double';
import { bootWebContainerRuntime, forgetWebContainerBootForTests } from '../../runtime/webcontainer/boot';
import type { Runtime } from '../../runtime/types';
import { bootRuntime, RuntimeBoot, RuntimeBootError, type BootState } from './runtime-boot';

const never = () => new Promise<Runtime>(() => undefined);
const rejects = () => Promise.reject(new Error('Unable to reach the WebContainer server'));
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(condition()).toBe(true);
}

function recorder(boot: RuntimeBoot): BootState[] {
  const states: BootState[] = [];
  boot.subscribe((state) => states.push(state));
  return states;
}

describe('bootRuntime', () => {
  it('uses WebContainer when it boots', async () => {
    const container = await createEmbeddedRuntime();
    const result = await bootRuntime({
      isolated: true,
      supported: true,
      bootWebContainer: async () => container,
      createEmbedded: () => createEmbeddedRuntime(),
    });
    expect(result).toEqual({ runtime: container, kind: 'webcontainer' });
  });

  it('serves with the embedded runtime at once while WebContainer boots, then says why it fell back', async () => {
    const boot = new RuntimeBoot({ isolated: true, supported: true, timeoutMs: 100, bootWebContainer: never, createEmbedded: () => createEmbeddedRuntime() });
    const states = recorder(boot);
    const started = Date.now();
    const result = await boot.boot('auto');
    expect(Date.now() - started).toBeLessThan(100);
    expect(result.kind).toBe('embedded');
    expect(boot.state).toMatchObject({ state: 'ready', kind: 'embedded', webContainerPending: true });
    await until(() => boot.state.state === 'ready' && boot.state.reason === 'timed-out');
    expect(boot.state).toMatchObject({ state: 'ready', kind: 'embedded', reason: 'timed-out', canRetryWebContainer: true });
    expect(boot.state.state === 'ready' && boot.state.notice).toContain('did not start within 0.1 s');
    expect(states.every((s) => s.state !== 'failed')).toBe(true);
  });

  it('keeps a WebContainer that boots after the embedded runtime on standby, and switches with the files', async () => {
    const container = await createEmbeddedRuntime({ workdir: '/home/wc' });
    let finishBoot: (runtime: Runtime) => void = () => undefined;
    const boot = new RuntimeBoot({
      isolated: true,
      supported: true,
      bootWebContainer: () => new Promise<Runtime>((resolve) => (finishBoot = resolve)),
      createEmbedded: () => createEmbeddedRuntime(),
    });
    const first = await boot.boot('auto');
    expect(first.kind).toBe('embedded');
    await first.runtime.writeFile('early.txt', 'written before WebContainer was up');
    finishBoot(container);
    await until(() => boot.state.state === 'ready' && boot.state.webContainerStandby === true);
    expect(boot.state).toMatchObject({ kind: 'embedded', canRetryWebContainer: true });
    const switched = await boot.retryWebContainer();
    expect(switched?.runtime).toBe(container);
    expect(boot.state).toMatchObject({ state: 'ready', kind: 'webcontainer' });
    expect(text(await container.readFile('early.txt'))).toBe('written before WebContainer was up');
  });

  it('falls back to embedded when boot rejects, naming the error', async () => {
    const boot = new RuntimeBoot({ isolated: true, supported: true, bootWebContainer: rejects, createEmbedded: () => createEmbeddedRuntime() });
    const result = await boot.boot('auto');
    expect(result.kind).toBe('embedded');
    expect(result.notice).toContain('Unable to reach the WebContainer server');
    expect(boot.state).toMatchObject({ state: 'ready', reason: 'error', canRetryWebContainer: true });
  });

  it('does not even try WebContainer on a page that is not cross-origin isolated', async () => {
    let tried = false;
    const boot = new RuntimeBoot({
      isolated: false,
      bootWebContainer: async () => {
        tried = true;
        return createEmbeddedRuntime();
      },
      createEmbedded: () => createEmbeddedRuntime(),
    });
    const result = await boot.boot('auto');
    expect(tried).toBe(false);
    expect(result.notice).toMatch(/cross-origin isolated/);
    expect(boot.state).toMatchObject({ state: 'ready', reason: 'not-cross-origin-isolated', canRetryWebContainer: false });
  });

  it('reports an unsupported browser', async () => {
    const boot = new RuntimeBoot({ isolated: true, supported: false, bootWebContainer: never, createEmbedded: () => createEmbeddedRuntime() });
    await boot.boot('auto');
    expect(boot.state).toMatchObject({ state: 'ready', kind: 'embedded', reason: 'unsupported-browser' });
  });

  it('honours a forced embedded runtime without touching WebContainer', async () => {
    let tried = false;
    const boot = new RuntimeBoot({
      isolated: true,
      supported: true,
      bootWebContainer: () => {
        tried = true;
        return never();
      },
      createEmbedded: () => createEmbeddedRuntime(),
    });
    const result = await boot.boot('embedded');
    expect(tried).toBe(false);
    expect(result.kind).toBe('embedded');
    expect(result.notice).toBeUndefined();
  });

  it('fails, with the reason, when WebContainer is forced and cannot start', async () => {
    const boot = new RuntimeBoot({ isolated: true, supported: true, timeoutMs: 50, bootWebContainer: never, createEmbedded: () => createEmbeddedRuntime() });
    await expect(boot.boot('webcontainer')).rejects.toBeInstanceOf(RuntimeBootError);
    expect(boot.state).toMatchObject({ state: 'failed', kind: 'webcontainer', reason: 'timed-out', canRetryWebContainer: true });
  });

  it('tries WebContainer again and carries the workspace over', async () => {
    let attempt = 0;
    const container = await createEmbeddedRuntime({ workdir: '/home/wc' });
    const boot = new RuntimeBoot({
      isolated: true,
      supported: true,
      timeoutMs: 50,
      bootWebContainer: () => (++attempt === 1 ? never() : Promise.resolve(container)),
      createEmbedded: () => createEmbeddedRuntime(),
    });
    const first = await boot.boot('auto');
    await first.runtime.writeFile('work.txt', 'made while offline');
    const second = await boot.retryWebContainer();
    expect(second?.runtime).toBe(container);
    expect(boot.state).toMatchObject({ state: 'ready', kind: 'webcontainer', canRetryWebContainer: false });
    expect(text(await container.readFile('work.txt'))).toBe('made while offline');
  });

  it('keeps the embedded runtime when the retry fails too', async () => {
    const boot = new RuntimeBoot({ isolated: true, supported: true, timeoutMs: 50, bootWebContainer: rejects, createEmbedded: () => createEmbeddedRuntime() });
    await boot.boot('auto');
    expect(await boot.retryWebContainer()).toBeUndefined();
    expect(boot.state).toMatchObject({ state: 'ready', kind: 'embedded', canRetryWebContainer: true });
    expect(boot.state.state === 'ready' && boot.state.notice).toMatch(/still could not start/);
  });

  it('fails visibly when even the embedded runtime cannot start', async () => {
    const boot = new RuntimeBoot({ isolated: false, bootWebContainer: never, createEmbedded: () => Promise.reject(new Error('worker blocked')) });
    await expect(boot.boot('auto')).rejects.toThrow(/worker blocked/);
    expect(boot.state).toMatchObject({ state: 'failed', kind: 'embedded', reason: 'error' });
  });
});

describe('RuntimeBoot on iPhone and iPad', () => {
  it('serves with the embedded runtime and starts WebContainer only when asked', async () => {
    const container = await createEmbeddedRuntime({ workdir: '/home/wc' });
    let boots = 0;
    const boot = new RuntimeBoot({
      isolated: true,
      supported: true,
      autoBootWebContainer: false,
      bootWebContainer: async () => {
        boots += 1;
        return container;
      },
      createEmbedded: () => createEmbeddedRuntime(),
    });
    const first = await boot.boot('auto');
    expect(first.kind).toBe('embedded');
    expect(boots).toBe(0);
    expect(boot.state).toMatchObject({ state: 'ready', kind: 'embedded', reason: 'on-request', canRetryWebContainer: true });
    expect(boot.state.state === 'ready' && boot.state.notice).toMatch(/iPhone and iPad/);
    expect((await boot.retryWebContainer())?.runtime).toBe(container);
    expect(boots).toBe(1);
  });

  it('boots WebContainer there when the person chose it in the settings', async () => {
    const container = await createEmbeddedRuntime({ workdir: '/home/wc' });
    const boot = new RuntimeBoot({ isolated: true, supported: true, autoBootWebContainer: false, bootWebContainer: async () => container, createEmbedded: () => createEmbeddedRuntime() });
    expect((await boot.boot('webcontainer')).runtime).toBe(container);
  });
});

// The real boot module against the API double, whose boot lifecycle follows @webcontainer/api's dist: the page's boot
// iframe promise is made once and never rejects (offline it never settles). A retry must neither hang nor boot twice.
describe('retrying a WebContainer boot (the real boot module, the API double)', () => {
  const machines: { teardown(): void; isTornDown: boolean }[] = [];
  afterEach(() => {
    forgetWebContainerBootForTests();
    for (const machine of machines.splice(0)) if (!machine.isTornDown) machine.teardown();
  });
  const bootWith = (api: ReturnType<typeof createWebContainerApiDouble>) => async () => {
    const runtime = await bootWebContainerRuntime({}, async () => api);
    const booted = api.booted();
    if (booted) machines.push(booted);
    return runtime;
  };

  it('after a timeout, waits on the same pending boot and switches once it arrives', async () => {
    let reachable!: () => void;
    const api = createWebContainerApiDouble({ network: new Promise<void>((resolve) => (reachable = resolve)) });
    const boot = new RuntimeBoot({ isolated: true, supported: true, timeoutMs: 100, bootWebContainer: bootWith(api), createEmbedded: () => createEmbeddedRuntime() });
    await boot.boot('auto');
    await until(() => boot.state.state === 'ready' && boot.state.reason === 'timed-out');
    const retry = boot.retryWebContainer();
    reachable();
    expect((await retry)?.kind).toBe('webcontainer');
    expect(api.bootCalls).toHaveLength(1);
  });

  it('after a timeout against an unreachable stackblitz.com, ends again with the reason instead of hanging', async () => {
    const api = createWebContainerApiDouble({ network: 'unreachable' });
    const boot = new RuntimeBoot({ isolated: true, supported: true, timeoutMs: 100, bootWebContainer: bootWith(api), createEmbedded: () => createEmbeddedRuntime() });
    await boot.boot('auto');
    await until(() => boot.state.state === 'ready' && boot.state.reason === 'timed-out');
    expect(await boot.retryWebContainer()).toBeUndefined();
    expect(boot.state).toMatchObject({ state: 'ready', kind: 'embedded', reason: 'timed-out', canRetryWebContainer: true });
    expect(api.bootCalls).toHaveLength(1);
  });

  it('after a boot that failed, boots again and can succeed', async () => {
    const api = createWebContainerApiDouble({ buildErrors: [new Error('Unable to create more instances')] });
    const boot = new RuntimeBoot({ isolated: true, supported: true, timeoutMs: 5000, bootWebContainer: bootWith(api), createEmbedded: () => createEmbeddedRuntime() });
    const first = await boot.boot('auto');
    expect(first.kind).toBe('embedded');
    await until(() => boot.state.state === 'ready' && boot.state.reason === 'error');
    expect((await boot.retryWebContainer())?.kind).toBe('webcontainer');
    expect(api.bootCalls).toHaveLength(2);
  });
});
