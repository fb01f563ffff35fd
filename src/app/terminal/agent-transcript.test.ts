import { describe, expect, it } from 'vitest';
import { AgentTranscript, type TranscriptCommand } from './agent-transcript';

/** Records writes; a reset starts a new screen, as `Terminal.reset()` does. */
function recorder() {
  let screen = '';
  let resets = 0;
  const transcript = new AgentTranscript({
    write: (data) => (screen += data),
    reset: () => {
      screen = '';
      resets++;
    },
  });
  // Colours don't matter here; what a person reads does.
  const text = () => screen.replace(/\x1b\[[0-9;]*m/g, '');
  return { transcript, text, resets: () => resets };
}

const command = (id: string, cmd: string, output: string, status: TranscriptCommand['status']) => ({
  id,
  command: cmd,
  output,
  status,
});

describe('AgentTranscript', () => {
  it('shows each command with a $ and its output, appended as it streams', () => {
    const { transcript, text, resets } = recorder();
    transcript.update([command('1', 'npm test', 'running 3 tests\n', 'running')]);
    expect(text()).toBe('$ npm test\r\nrunning 3 tests\r\n');
    transcript.update([command('1', 'npm test', 'running 3 tests\n3 passed\n', 'done')]);
    transcript.update([
      command('1', 'npm test', 'running 3 tests\n3 passed\n', 'done'),
      command('2', 'cat missing', 'cat: missing: No such file', 'error'),
    ]);
    expect(text()).toBe(
      '$ npm test\r\nrunning 3 tests\r\n3 passed\r\n✓ done\r\n' +
        '\r\n$ cat missing\r\ncat: missing: No such file\r\n✗ failed\r\n',
    );
    expect(resets()).toBe(0);
  });

  it('writes nothing when nothing changed', () => {
    const { transcript, text } = recorder();
    const commands = [command('1', 'ls', 'a\n', 'done')];
    transcript.update(commands);
    const before = text();
    transcript.update(commands);
    expect(text()).toBe(before);
  });

  it('rewrites the transcript when an earlier command changes (parallel commands) or the list is replaced', () => {
    const { transcript, text, resets } = recorder();
    transcript.update([command('1', 'sleep 1', '', 'running'), command('2', 'ls', 'a\n', 'done')]);
    transcript.update([command('1', 'sleep 1', 'woke\n', 'done'), command('2', 'ls', 'a\n', 'done')]);
    expect(resets()).toBe(1);
    expect(text()).toBe('$ sleep 1\r\nwoke\r\n✓ done\r\n\r\n$ ls\r\na\r\n✓ done\r\n');
    transcript.update([]);
    expect(text()).toBe('');
  });
});
