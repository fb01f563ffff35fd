import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { zipSync } from 'fflate';
import { createEmbeddedRuntime } from '../../runtime/embedded';
import { Workspace } from '../../runtime/workspace/workspace';
import { createPersonalConventionsStore } from '../../store';
import { Conventions } from './conventions.svelte';

const bytes = (text: string) => new TextEncoder().encode(text);
const SKILL = (name: string, body: string) => `---\nname: ${name}\ndescription: Use for ${name} work\n---\n${body}\n`;

function conventionsWith(files: Record<string, string>, prefix = `t${Math.random()}-`) {
  const workspace = new Workspace();
  workspace.attach(createEmbeddedRuntime({ files }));
  return { workspace, conventions: new Conventions({ workspace, openStore: async () => createPersonalConventionsStore(prefix) }), prefix };
}

describe('Conventions', () => {
  it('finds the workspace skills and templates, offering the valid ones only', async () => {
    const { conventions } = conventionsWith({
      '.agents/skills/deploy/SKILL.md': SKILL('deploy', 'DEPLOY BODY'),
      '.claude/skills/broken/SKILL.md': '---\ndescription: no name\n---\nx',
      '.claude/skills/manual/SKILL.md': '---\nname: manual\ndescription: by hand\ndisable-model-invocation: true\n---\nM',
      '.claude/commands/fix.md': 'Fix $1',
      'src/skills/other/SKILL.md': SKILL('other', 'not a convention folder'),
    });
    const skills = await conventions.forRun();
    expect(skills).toEqual([{ name: 'deploy', description: 'Use for deploy work', path: '.agents/skills/deploy/SKILL.md' }]);
    expect(conventions.items.map((i) => [i.skill.name, i.state])).toEqual([['deploy', 'on'], ['broken', 'invalid'], ['manual', 'on']]);
    expect(conventions.commands().templates.map((t) => t.name)).toEqual(['fix']);
    expect(conventions.commands().skills.map((s) => s.name)).toEqual(['deploy', 'manual']);
  });

  it('imports a zip of skills once, places them read-only at /skills/, and keeps them for the next page', async () => {
    const { conventions, workspace, prefix } = conventionsWith({});
    const zip = zipSync({ 'pdf/SKILL.md': bytes(SKILL('pdf', 'PDF BODY')), 'pdf/scripts/run.sh': bytes('echo hi'), 'commands/review.md': bytes('Review $ARGUMENTS') });
    expect(await conventions.importZip('pack.zip', zip)).toEqual({ skills: 1, commands: 1 });
    expect(await conventions.forRun()).toEqual([{ name: 'pdf', description: 'Use for pdf work', path: '/skills/pdf/SKILL.md' }]);
    expect(new TextDecoder().decode(await workspace.readFile('/skills/pdf/SKILL.md'))).toContain('PDF BODY');
    expect((await workspace.exec('sh /skills/pdf/scripts/run.sh')).output).toContain('hi');

    const { conventions: nextPage } = conventionsWith({}, prefix);
    await nextPage.refresh();
    expect(nextPage.items.map((i) => [i.skill.source, i.skill.name, i.state])).toEqual([['personal', 'pdf', 'on']]);
    expect(nextPage.commands().templates.map((t) => t.name)).toEqual(['review']);

    await nextPage.removeCommand('review');
    expect(nextPage.commands().templates).toEqual([]);
    const { conventions: third } = conventionsWith({}, prefix);
    await third.refresh();
    expect(third.commands().templates).toEqual([]); // removed from storage, not just from this page
  });

  it('leaves skills switched off out of the prompt, and forgets a removed one', async () => {
    const { conventions } = conventionsWith({ '.agents/skills/deploy/SKILL.md': SKILL('deploy', 'B') });
    await conventions.importZip('pdf.zip', zipSync({ 'SKILL.md': bytes(SKILL('pdf', 'P')) }));
    await conventions.toggle('workspace:deploy');
    expect((await conventions.forRun()).map((s) => s.name)).toEqual(['pdf']);
    await conventions.remove('pdf');
    expect(await conventions.forRun()).toEqual([]);
    expect(conventions.commands().unusableSkills.get('deploy')).toMatch(/switched off/);
  });

  it('says why an import holds nothing', async () => {
    const { conventions } = conventionsWith({});
    expect(await conventions.importZip('notes.zip', zipSync({ 'a.txt': bytes('x') }))).toBeNull();
    expect(conventions.error).toMatch(/notes.zip could not be imported: it holds no SKILL.md/);
  });
});
