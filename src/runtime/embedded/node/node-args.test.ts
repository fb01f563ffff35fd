import { describe, expect, it } from 'vitest';
import { parseNodeArgs } from './node-args';

describe('parseNodeArgs', () => {
  it('reads a script and the arguments after it, keeping options meant for the script', () => {
    expect(parseNodeArgs(['app.js', '--port', '3', '-e'])).toEqual({ kind: 'file', path: 'app.js', args: ['--port', '3', '-e'], execArgv: [], module: false, memoryMb: undefined });
  });

  it('reads -e/-p code, --input-type and the arguments after the code', () => {
    expect(parseNodeArgs(['-p', '1 + 1', 'x'])).toMatchObject({ kind: 'eval', code: '1 + 1', print: true, args: ['x'] });
    expect(parseNodeArgs(['--input-type=module', '-e', 'import "x"'])).toMatchObject({ kind: 'eval', module: true, print: false });
    expect(parseNodeArgs(['-e'])).toEqual({ kind: 'error', message: 'node: -e requires an argument' });
  });

  it('reads stdin when there is no script, or with -', () => {
    expect(parseNodeArgs([])).toMatchObject({ kind: 'stdin', args: [] });
    expect(parseNodeArgs(['-', 'a'])).toMatchObject({ kind: 'stdin', args: ['a'] });
  });

  it('reads --test with its files and --test-only', () => {
    expect(parseNodeArgs(['--test', '--test-only', 'test/a.test.js'])).toMatchObject({ kind: 'test', patterns: ['test/a.test.js'], only: true });
  });

  it('takes the memory cap from --max-old-space-size and ignores harmless flags', () => {
    expect(parseNodeArgs(['--max-old-space-size=64', '--enable-source-maps', 'a.js'])).toMatchObject({ kind: 'file', memoryMb: 64 });
  });

  it('refuses options the embedded runtime cannot honour, naming the WebContainer runtime', () => {
    const result = parseNodeArgs(['--inspect', 'a.js']);
    expect(result.kind).toBe('error');
    expect(result.kind === 'error' && result.message).toContain('WebContainer');
  });
});
