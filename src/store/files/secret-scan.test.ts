import { describe, expect, it } from 'vitest';
import type { Message } from '../../ai/types';
import { redactSecrets, scanForSecrets } from './secret-scan';
import { assistant, call, result, user } from '../testing/messages';

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array | undefined) => new TextDecoder().decode(b);

const KEYS = {
  anthropic: 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz012345',
  openaiProject: 'sk-proj-ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
  openai: 'sk-abcdefghijklmnopqrstuvwxyz0123',
  google: 'AIzaSyA1234567890abcdefghijklmnopqrstuv',
  github: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
  githubPat: 'github_pat_11ABCDEFG0123456789_abcdefghijklmnop',
  slack: 'xoxb-1234567890-abcdefghij',
  aws: 'AKIAIOSFODNN7EXAMPLE',
};
const PEM = '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\nabc\n-----END RSA PRIVATE KEY-----';

describe('scanForSecrets', () => {
  it('recognises the common key formats in the transcript, with masked previews', () => {
    const messages: Message[] = [
      user(`my key is ${KEYS.anthropic}`),
      assistant([call('c1', 'bash', { command: `curl -H "Authorization: Bearer ${KEYS.openaiProject}"` })]),
      result('c1', `OPENAI=${KEYS.openai}\nGOOGLE=${KEYS.google}\n${KEYS.github}\n${KEYS.githubPat}\n${KEYS.slack}\n${KEYS.aws}`),
    ];
    const findings = scanForSecrets({ messages });
    expect(findings.map((f) => [f.seq, f.kind, f.line])).toEqual([
      [0, 'anthropic-key', 1],
      [1, 'openai-key', 1],
      [2, 'openai-key', 1],
      [2, 'google-key', 2],
      [2, 'github-token', 3],
      [2, 'github-token', 4],
      [2, 'slack-token', 5],
      [2, 'aws-access-key', 6],
    ]);
    expect(findings[1].field).toBe('content/0/arguments/command');
    expect(findings[0].preview).toBe('sk-ant-…45 (45 characters)');
    for (const f of findings) expect(f.preview).not.toContain(f.value.slice(8, -2));
  });

  it('finds private keys and every value of .env files in the workspace and baseline', () => {
    const files = new Map([
      ['deploy/id_rsa', enc(PEM)],
      ['.env', enc('# comment=ignored\nDATABASE_URL="postgres://u:p@h/db"\nEMPTY=\nexport TOKEN=abc123\n')],
      ['config/.env.local', enc(`ANTHROPIC_API_KEY=${KEYS.anthropic}\n`)],
      ['src/readme.md', enc('nothing to see')],
      ['logo.png', new Uint8Array([0, 1, 2])],
    ]);
    const findings = scanForSecrets({ files, baseline: new Map([['.env', enc('OLD=secret-value\n')]]) });
    expect(findings.map((f) => [f.where, f.path, f.kind, f.line])).toEqual([
      ['workspace', 'deploy/id_rsa', 'private-key', 1],
      ['workspace', '.env', 'env-value', 2],
      ['workspace', '.env', 'env-value', 4],
      ['workspace', 'config/.env.local', 'anthropic-key', 1],
      ['baseline', '.env', 'env-value', 1],
    ]);
    expect(findings[0].preview).toBe('-----BEGIN RSA PRIVATE KEY-----');
    expect(findings[1].preview).toBe('DATABASE_URL=po…db (19 characters)');
    expect(findings[2].preview).toBe('TOKEN=••••••');
  });

  it('finds the person\'s own key in any context, even without a known prefix', () => {
    const findings = scanForSecrets({ messages: [user('the key: custom-provider-key-0001')], knownSecrets: ['custom-provider-key-0001'] });
    expect(findings.map((f) => f.kind)).toEqual(['known-secret']);
  });

  it('ignores image data and ordinary text', () => {
    const messages: Message[] = [
      { role: 'user', content: [{ type: 'image', mimeType: 'image/png', data: `AAAA${KEYS.google}` }], timestamp: 1 },
      user('skeleton sk-short and task-ant-farm'),
    ];
    expect(scanForSecrets({ messages })).toEqual([]);
  });
});

describe('the context shown with a finding', () => {
  it('is the text around it on its line, with it masked', () => {
    const [finding] = scanForSecrets({ messages: [user(`first line\nplease use my key ${KEYS.anthropic} for the tests\nlast line`)] });
    expect(finding.context).toBe('please use my key sk-ant-••••••45 for the tests');
  });

  it('masks every other secret on the line and never shows a part of one', () => {
    const line = `${'a'.repeat(50)} ${KEYS.github} then ${KEYS.anthropic} and ${KEYS.aws} ${'z'.repeat(50)}`;
    const findings = scanForSecrets({ messages: [user(line)] });
    expect(findings).toHaveLength(3);
    for (const finding of findings) {
      for (const key of [KEYS.github, KEYS.anthropic, KEYS.aws]) {
        // No run of 6 characters of any secret's middle (prefix and last two excepted) appears in any context.
        const middle = key.slice(key.length > 12 ? 7 : 2, -2);
        for (let i = 0; i + 6 <= middle.length; i++) expect(finding.context).not.toContain(middle.slice(i, i + 6));
      }
    }
    const anthropic = findings.find((f) => f.kind === 'anthropic-key')!;
    // 40 characters each side: the masked neighbours count as they show.
    expect(anthropic.context).toBe(`…${'a'.repeat(21)} ghp_••••••89 then sk-ant-••••••45 and AKIA••••••LE ${'z'.repeat(22)}…`);
    expect(findings.find((f) => f.kind === 'github-token')!.context.startsWith(`…${'a'.repeat(39)} ghp_••••••89 then`)).toBe(true);
  });

  it('shows a .env value by its name and a private key by its first line', () => {
    const findings = scanForSecrets({ files: new Map([['.env', enc('TOKEN=abc123xyz789\n')], ['id_rsa', enc(PEM)]]) });
    expect(findings.map((f) => f.context)).toEqual(['TOKEN=ab••••••89', '-----BEGIN RSA PRIVATE KEY-----••••']);
  });
});

describe('redactSecrets', () => {
  it('replaces the selected findings only, in copies', () => {
    const messages: Message[] = [user(`a ${KEYS.anthropic} b ${KEYS.github}`), assistant([call('c', 'bash', { command: `echo ${KEYS.anthropic}` })])];
    const files = new Map([['.env', enc('A=one\nB=two\n')], ['k.txt', enc(KEYS.aws)]]);
    const findings = scanForSecrets({ messages, files });
    const chosen = findings.filter((f) => f.value !== 'two' && f.kind !== 'github-token');
    const out = redactSecrets({ messages, files }, chosen);
    expect(out.messages?.[0]).toEqual(user(`a [REDACTED] b ${KEYS.github}`));
    expect(JSON.stringify(out.messages?.[1])).toContain('echo [REDACTED]');
    expect(dec(out.files?.get('.env'))).toBe('A=[REDACTED]\nB=two\n');
    expect(dec(out.files?.get('k.txt'))).toBe('[REDACTED]');
    // Originals untouched.
    expect(messages[0]).toEqual(user(`a ${KEYS.anthropic} b ${KEYS.github}`));
    expect(dec(files.get('k.txt'))).toBe(KEYS.aws);
    expect(scanForSecrets(redactSecrets({ messages, files }, findings))).toEqual([]);
  });
});
