import { describe, expect, it } from 'vitest';
import { createEmbeddedRuntime } from './in-process';

const encode = (text: string) => new TextEncoder().encode(text);
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('placeReadOnly', () => {
  it('puts files outside the workspace where reads and bash reach them, and nothing can change them', async () => {
    const runtime = createEmbeddedRuntime({ files: { 'a.txt': 'a' } });
    const heard: string[][] = [];
    runtime.watch((paths) => heard.push(paths));
    await runtime.placeReadOnly('/skills', [
      { path: 'pdf/SKILL.md', data: encode('---\nname: pdf\n---\nbody') },
      { path: 'pdf/scripts/run.sh', data: encode('echo from-skill') },
    ]);

    expect(decode(await runtime.readFile('/skills/pdf/SKILL.md'))).toContain('name: pdf');
    expect((await runtime.exec('sh /skills/pdf/scripts/run.sh')).output).toContain('from-skill');

    const write = await runtime.exec('echo changed > /skills/pdf/SKILL.md');
    expect(write.exitCode).not.toBe(0);
    expect(write.output).toMatch(/read-only/);
    await expect(runtime.writeFile('/skills/pdf/new.md', 'x')).rejects.toThrow(/EROFS: \/skills\/pdf\/new.md is read-only/);
    await expect(runtime.rm('/skills/pdf', { recursive: true })).rejects.toThrow(/read-only/);
    expect(decode(await runtime.readFile('/skills/pdf/SKILL.md'))).toContain('body');

    const exported = await runtime.scan(['']);
    expect(exported.map((e) => e.path)).toEqual(['', 'a.txt']);
    expect(heard.flat()).toEqual([]);
  });

  it('replaces what it placed before, and refuses a folder inside the workspace', async () => {
    const runtime = createEmbeddedRuntime();
    await runtime.placeReadOnly('/skills', [{ path: 'old/SKILL.md', data: encode('old') }]);
    await runtime.placeReadOnly('/skills', [{ path: 'new/SKILL.md', data: encode('new') }]);
    expect(await runtime.stat('/skills/old/SKILL.md')).toBeNull();
    expect(await runtime.stat('/skills/new/SKILL.md')).not.toBeNull();
    await expect(runtime.placeReadOnly(`${runtime.workdir}/skills`, [])).rejects.toThrow(/outside the workspace/);
  });
});
