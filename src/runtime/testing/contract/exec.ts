// The contract's exec cases (runtime-contract.ts): exit codes, the session folder, environment, stops, output.

import { describe, expect, it } from 'vitest';
import type { ContractShell } from './shells';
import type { Runtime } from '../../types';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** Registers the exec cases; `fresh` makes the runtime under test (the suite disposes it). */
export function describeExecContract(fresh: () => Promise<Runtime>, shell: ContractShell): void {
  describe('exec', () => {
    it('returns exit codes', async () => {
      const rt = await fresh();
      expect((await rt.exec('true')).exitCode).toBe(0);
      expect((await rt.exec('false')).exitCode).toBe(1);
      expect(await rt.exec('echo bye; exit 3')).toEqual({ output: 'bye\n', exitCode: 3 });
      const missing = await rt.exec('definitely-not-a-command-xyz');
      expect(missing.exitCode).not.toBe(0);
      expect(missing.output).toMatch(/not found/);
    });

    it('sees files written by writeFile and its writes are readable', async () => {
      const rt = await fresh();
      await rt.writeFile('in.txt', 'from the file methods\n');
      const result = await rt.exec(`cat in.txt && ${shell.print('made')} > out.txt`);
      expect(result).toEqual({ output: 'from the file methods\n', exitCode: 0 });
      expect(text(await rt.readFile('out.txt'))).toBe('made');
    });

    it('merges stderr into the output', async () => {
      const rt = await fresh();
      const result = await rt.exec('echo out; echo err 1>&2');
      expect(result.output).toBe('out\nerr\n');
    });

    it('keeps the working directory across calls, like one shell session', async () => {
      const rt = await fresh();
      await rt.exec('mkdir -p sub/inner && cd sub');
      expect((await rt.exec('pwd')).output).toBe(`${rt.workdir}/sub\n`);
      await rt.exec('cd inner');
      expect((await rt.exec('pwd')).output).toBe(`${rt.workdir}/sub/inner\n`);
      await rt.exec('cd ../..');
      expect((await rt.exec('pwd')).output).toBe(`${rt.workdir}\n`);
    });

    it('runs one command in an explicit cwd without moving the session', async () => {
      const rt = await fresh();
      await rt.mkdir('elsewhere');
      expect((await rt.exec('pwd', { cwd: 'elsewhere' })).output).toBe(`${rt.workdir}/elsewhere\n`);
      expect((await rt.exec('pwd')).output).toBe(`${rt.workdir}\n`);
    });

    it('passes environment variables', async () => {
      const rt = await fresh();
      const result = await rt.exec('echo "$GREETING, $NAME"', { env: { GREETING: 'hello', NAME: 'Conch' } });
      expect(result.output).toBe('hello, Conch\n');
    });

    it('stops a runaway loop at the timeout', async () => {
      const rt = await fresh();
      const started = Date.now();
      const result = await rt.exec(`echo before the loop; ${shell.busyLoop}`, { timeoutMs: 500 });
      expect(Date.now() - started).toBeLessThan(1500);
      expect(result.exitCode).toBeNull();
      expect(result.output).toMatch(/^before the loop\n[^]*timed out/);
      expect((await rt.exec('echo still usable')).output).toBe('still usable\n');
    });

    it('stops a running command when the signal aborts', async () => {
      const rt = await fresh();
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 200);
      const started = Date.now();
      const result = await rt.exec(`echo working; ${shell.idleLoop}`, { signal: controller.signal });
      expect(Date.now() - started).toBeLessThan(1500);
      expect(result.exitCode).toBeNull();
      expect(result.output).toMatch(/^working\n[^]*aborted/);
    });

    it('does not start a command whose signal is already aborted', async () => {
      const rt = await fresh();
      const controller = new AbortController();
      controller.abort();
      const result = await rt.exec('echo ran > ran.txt', { signal: controller.signal });
      expect(result.exitCode).toBeNull();
      expect(await rt.stat('ran.txt')).toBeNull();
    });

    it('returns big output whole and hands every chunk to onOutput', async () => {
      const rt = await fresh();
      const chunks: string[] = [];
      const result = await rt.exec("seq 1 4000 | sed 's/^/line /'", {
        onOutput: (chunk) => chunks.push(chunk),
      });
      const lines = result.output.trimEnd().split('\n');
      expect(lines).toHaveLength(4000);
      expect(lines[0]).toBe('line 1');
      expect(lines[3999]).toBe('line 4000');
      expect(chunks.join('')).toBe(result.output);
    });

    it('keeps multi-byte UTF-8 intact', async () => {
      const rt = await fresh();
      const sample = 'héllo 日本語 ✓ 🎉 ñ';
      await rt.writeFile('utf8.txt', `${sample}\n`);
      expect((await rt.exec('cat utf8.txt')).output).toBe(`${sample}\n`);
      expect((await rt.exec(`echo '${sample}'`)).output).toBe(`${sample}\n`);
    });

    it('strips terminal colour codes from the output', async () => {
      const rt = await fresh();
      expect((await rt.exec(shell.print('\x1b[31mred\x1b[0m plain\n'))).output).toBe('red plain\n');
    });

    it('runs a command after cd, in the same call and in the next', async () => {
      const rt = await fresh();
      await rt.mkdir('sub');
      expect(await rt.exec('cd sub && pwd')).toEqual({ output: `${rt.workdir}/sub\n`, exitCode: 0 });
      expect(await rt.exec('pwd')).toEqual({ output: `${rt.workdir}/sub\n`, exitCode: 0 });
    });

    it('returns the exit codes of false, exit 3 and pipelines, and stays usable after exit', async () => {
      const rt = await fresh();
      expect(await rt.exec('false')).toEqual({ output: '', exitCode: 1 });
      expect(await rt.exec('exit 3')).toEqual({ output: '', exitCode: 3 });
      expect(await rt.exec('echo after')).toEqual({ output: 'after\n', exitCode: 0 });
      expect((await rt.exec('false | true')).exitCode).toBe(0);
      expect((await rt.exec('true | false')).exitCode).toBe(1);
    });

    it('shows the model only the final state of a line redrawn with CR (progress output)', async () => {
      const rt = await fresh();
      const streamed: string[] = [];
      const result = await rt.exec(shell.print('fetch 10%\rfetch 50%\rfetch 100%\ndone\n'), { onOutput: (c) => streamed.push(c) });
      expect(result).toEqual({ output: 'fetch 100%\ndone\n', exitCode: 0 });
      expect(streamed.join('')).toBe('fetch 100%\ndone\n');
    });

    it('never interleaves the output of 200 commands started at once', async () => {
      const rt = await fresh();
      const results = await Promise.all(Array.from({ length: 200 }, (_, i) => rt.exec(`echo start-${i} && echo end-${i}`)));
      results.forEach((result, i) => expect(result).toEqual({ output: `start-${i}\nend-${i}\n`, exitCode: 0 }));
    }, 120_000);

    it('is usable, in the same folder, after a long command was aborted', async () => {
      const rt = await fresh();
      await rt.exec('mkdir -p kept && cd kept');
      const controller = new AbortController();
      // Aborted once it is seen running (or after a second, for a runtime that hands output over at the end).
      const fallback = setTimeout(() => controller.abort(), 1000);
      const result = await rt.exec(`echo working; ${shell.idleLoop}`, {
        signal: controller.signal,
        onOutput: (chunk) => {
          if (chunk.includes('working')) controller.abort();
        },
      });
      clearTimeout(fallback);
      expect(result.exitCode).toBeNull();
      expect(result.output).toMatch(/^working\n[^]*aborted/);
      expect(await rt.exec('echo still usable && pwd')).toEqual({ output: `still usable\n${rt.workdir}/kept\n`, exitCode: 0 });
    });
  });
}
