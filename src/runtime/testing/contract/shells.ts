// How each runtime's shell spells what the contract suite needs and shells spell differently (runtime-contract.ts).

/**
 * Commands for what has no spelling common to the runtimes' shells: jsh (WebContainer) is reported to have no
 * `printf`, `sleep` or loops, and the embedded shell has no `node`.
 */
export type ContractShell = {
  /** A command printing `text` exactly (control characters included, no newline added). */
  print(text: string): string;
  /** A command that keeps the CPU busy forever. */
  busyLoop: string;
  /** A command that waits forever, waking every 50 ms. */
  idleLoop: string;
};

/** For POSIX shells (the embedded just-bash). */
export const POSIX_CONTRACT_SHELL: ContractShell = {
  print: (text) => `printf '${printfFormat(text)}'`,
  busyLoop: 'while true; do :; done',
  idleLoop: 'while true; do sleep 0.05; done',
};

/** For jsh, with Node at hand (WebContainer). */
export const JSH_CONTRACT_SHELL: ContractShell = {
  print: (text) => `node -e 'process.stdout.write(${JSON.stringify(text).replace(/'/g, '\\u0027')})'`,
  busyLoop: "node -e 'for(;;){}'",
  idleLoop: "node -e 'setInterval(() => {}, 50)'",
};

function printfFormat(text: string): string {
  return text.replace(/[\\%'\x00-\x1f\x7f]/g, (ch) => {
    if (ch === '%') return '%%';
    if (ch === '\\') return '\\\\';
    if (ch === "'") return "'\\''";
    if (ch === '\n') return '\\n';
    if (ch === '\r') return '\\r';
    return `\\${ch.charCodeAt(0).toString(8).padStart(3, '0')}`;
  });
}
