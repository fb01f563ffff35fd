// Nothing can confirm how the real jsh behaves before a person opens Conch, so the adapter asks it once, at boot,
// with a few tiny commands, and then runs the agent's commands the way that worked:
//   'osc-session'  one long-lived `jsh --osc` session (StackBlitz's own way; `cd` persists natively)
//   'wrapper'      `jsh -c` per command, wrapped by CwdMarker to carry `cd` over (needs $?, a variable and printf)
//   'plain'        `jsh -c` per command, nothing carried over (when neither of the above passed)
// Each probe checks clean output (no escapes, no marker, no echo), the exit codes of `true` and `false`, and that
// `cd` carries over to the next command.

import { runJshCommand } from './jsh/command';
import { JshSession } from './jsh/session';
import { toModelText } from '../exec/model-text';
import { parentOf } from '../paths';
import type { WebContainerLike } from './webcontainer-like';

export type ExecStrategy = 'osc-session' | 'wrapper' | 'plain';

/** How one way of running commands fared: whether it passed, what went wrong, how long the probe took. */
export type ProbeFinding = { works: boolean; detail: string; ms: number };

/** The strategy in use and what each probe found. */
export type ExecProbeReport = { strategy: ExecStrategy; osc: ProbeFinding; wrapper: ProbeFinding };

const PROBE_TIMEOUT_MS = 20_000;
const TOKEN = 'conch-probe-ok';

/** Probes both ways of running commands in `container` and picks one (the session when it passes). */
export async function probeExecStrategies(
  container: WebContainerLike,
  env: Record<string, string>,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<ExecProbeReport> {
  const workdir = container.workdir;
  const [osc, wrapper] = await Promise.all([
    timed(() => probeSession(container, env, workdir, timeoutMs / 2), timeoutMs),
    timed(() => probeWrapper(container, env, workdir), timeoutMs),
  ]);
  const strategy: ExecStrategy = osc.works ? 'osc-session' : wrapper.works ? 'wrapper' : 'plain';
  return { strategy, osc, wrapper };
}

/** A report for a strategy chosen without probing (tests, or a person's override). */
export function unprobedReport(strategy: ExecStrategy): ExecProbeReport {
  const skipped: ProbeFinding = { works: false, detail: 'not probed', ms: 0 };
  return { strategy, osc: skipped, wrapper: skipped };
}

type Check = { command: string; output?: string; exitCode: number; cwd?: string };

async function probeSession(container: WebContainerLike, env: Record<string, string>, workdir: string, readyTimeoutMs: number): Promise<string[]> {
  const session = await JshSession.start(container, { cwd: '.', env, readyTimeoutMs });
  const problems: string[] = [];
  try {
    const checks: Check[] = [
      { command: `echo ${TOKEN}`, output: TOKEN, exitCode: 0 },
      { command: 'false', exitCode: 1 },
      { command: 'cd ..', exitCode: 0 },
      { command: 'pwd', output: parentOf(workdir), exitCode: 0 },
    ];
    for (const check of checks) {
      let raw = '';
      const outcome = await session.run(check.command, { onRaw: (chunk) => (raw += chunk) });
      const exitCode = outcome.kind === 'stopped' ? null : outcome.exitCode;
      problems.push(...judge(check, raw, exitCode, undefined));
      if (outcome.kind !== 'exited') {
        problems.push(`the session ended during \`${check.command}\``);
        break;
      }
    }
  } finally {
    session.kill();
  }
  return problems;
}

async function probeWrapper(container: WebContainerLike, env: Record<string, string>, workdir: string): Promise<string[]> {
  const checks: Check[] = [
    { command: `echo ${TOKEN}`, output: TOKEN, exitCode: 0, cwd: workdir },
    { command: 'false', exitCode: 1, cwd: workdir },
    { command: 'cd ..', exitCode: 0, cwd: parentOf(workdir) },
  ];
  const problems: string[] = [];
  for (const check of checks) {
    let raw = '';
    const outcome = await runJshCommand(container, check.command, {
      cwd: '.',
      env,
      learnCwd: true,
      onRaw: (chunk) => (raw += chunk),
      signal: new AbortController().signal,
    });
    problems.push(...judge(check, raw, outcome.exitCode, outcome.cwd ?? '(no marker)'));
  }
  return problems;
}

function judge(check: Check, raw: string, exitCode: number | null, cwd: string | undefined): string[] {
  const problems: string[] = [];
  const text = toModelText(raw).trim();
  if (check.output !== undefined && text !== check.output) {
    problems.push(`\`${check.command}\` printed ${JSON.stringify(text.slice(0, 200))}, expected ${JSON.stringify(check.output)}`);
  } else if (check.output === undefined && text !== '') {
    problems.push(`\`${check.command}\` printed ${JSON.stringify(text.slice(0, 200))}, expected nothing`);
  }
  if (exitCode !== check.exitCode) problems.push(`\`${check.command}\` exited with ${exitCode}, expected ${check.exitCode}`);
  if (check.cwd !== undefined && cwd !== undefined && cwd !== check.cwd) {
    problems.push(`after \`${check.command}\` the folder was ${cwd}, expected ${check.cwd}`);
  }
  return problems;
}

async function timed(probe: () => Promise<string[]>, timeoutMs: number): Promise<ProbeFinding> {
  const started = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<string[]>((resolve) => {
    timer = setTimeout(() => resolve([`no answer within ${timeoutMs / 1000} s`]), timeoutMs);
  });
  let problems: string[];
  try {
    problems = await Promise.race([probe(), timeout]);
  } catch (error) {
    problems = [error instanceof Error ? error.message : String(error)];
  } finally {
    clearTimeout(timer);
  }
  const ms = Date.now() - started;
  return { works: problems.length === 0, detail: problems.length === 0 ? 'passed' : problems.join('; '), ms };
}
