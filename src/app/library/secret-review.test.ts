import { describe, expect, it } from 'vitest';
import type { Message } from '../../ai/types';
import { scanForSecrets } from '../../store';
import { assistant, call, result, user } from '../../store/testing/messages';
import { findingPlace } from './secret-review';

const KEY = 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz012345';

describe('findingPlace', () => {
  it('names the message a secret is in, in the words of the screen, with its seq for "show in transcript"', () => {
    const messages: Message[] = [
      user(`use ${KEY}`),
      assistant([{ type: 'thinking', thinking: `maybe ${KEY}` }, { type: 'text', text: `I will use ${KEY}` }, call('c', 'bash', { command: `export K=${KEY}` })]),
      result('c', `K=${KEY}`),
    ];
    const places = scanForSecrets({ messages }).map((f) => findingPlace(f, messages));
    expect(places).toEqual([
      { label: 'In a message you sent', seq: 0 },
      { label: 'In the agent’s thinking', seq: 1 },
      { label: 'In a reply', seq: 1 },
      { label: 'In the agent’s bash call', seq: 1 },
      { label: 'In the output of bash', seq: 2 },
    ]);
  });

  it('names a file by path and line, and a compaction summary without a link', () => {
    const files = new Map([['config/.env', new TextEncoder().encode(`A=1\nKEY=${KEY}\n`)]]);
    const [finding] = scanForSecrets({ files });
    expect(findingPlace(finding, [])).toEqual({ label: 'config/.env, line 2' });
    expect(findingPlace({ ...finding, where: 'baseline' }, [])).toEqual({ label: 'config/.env, line 2 (as imported)' });
    expect(findingPlace({ ...finding, where: 'transcript', seq: undefined, field: 'compaction 0' }, [])).toEqual({ label: 'In a compaction summary' });
  });
});
