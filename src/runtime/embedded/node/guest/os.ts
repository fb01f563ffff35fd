// `os` inside the guest: what a script asks about the machine, answered for the sandbox.

/** Builds the os module; `env` is process.env (HOME, USER). */
export function createOs(env: Record<string, string | undefined>): Record<string, unknown> {
  const cpu = { model: 'Conch embedded runtime (QuickJS)', speed: 0, times: { user: 0, nice: 0, sys: 0, idle: 0, irq: 0 } };
  return {
    EOL: '\n',
    devNull: '/dev/null',
    platform: () => 'linux',
    type: () => 'Linux',
    release: () => '6.0.0-conch',
    version: () => '#1 Conch',
    arch: () => 'wasm32',
    machine: () => 'wasm32',
    hostname: () => 'conch',
    homedir: () => env.HOME ?? '/home/project',
    tmpdir: () => env.TMPDIR ?? '/tmp',
    endianness: () => 'LE',
    uptime: () => 0,
    loadavg: () => [0, 0, 0],
    totalmem: () => 256 * 1024 * 1024,
    freemem: () => 128 * 1024 * 1024,
    availableParallelism: () => 1,
    cpus: () => [cpu],
    networkInterfaces: () => ({}),
    userInfo: () => ({ uid: 1000, gid: 1000, username: env.USER ?? 'user', homedir: env.HOME ?? '/home/project', shell: '/bin/bash' }),
    constants: { signals: {}, errno: {} },
  };
}
