import { Bash, InMemoryFs } from 'just-bash';
import { describe, expect, it } from 'vitest';
import { MemoryTree } from '../memory-tree';
import { engineCommand, exitStatus, type EngineSearch } from './engine-command';
import { Unsupported } from './unsupported';

async function shellWith(name: string, read: (args: string[]) => EngineSearch | null, withTree = true): Promise<Bash> {
  const fs = new InMemoryFs();
  fs.writeFileSync('/w/a.txt', 'a');
  const tree = withTree ? await MemoryTree.over(fs) : null;
  return new Bash({ fs, cwd: '/w', customCommands: [engineCommand(name, async () => tree, read)] });
}

const found: EngineSearch = (tree, ctx) => ({ stdout: `${ctx.cwd} ${tree.typeOf('/w/a.txt')}\n`, stderr: '', exitCode: 0 });

describe('engineCommand', () => {
  it('runs the search read from the arguments on the tree, in the command\'s working directory', async () => {
    const bash = await shellWith('echo', (args) => (args[0] === 'search' ? found : null));
    expect(await bash.exec('echo search')).toMatchObject({ stdout: '/w file\n', exitCode: 0 });
  });

  it('hands the command to just-bash\'s own when it is not for the engine, or the engine does not handle it', async () => {
    const unsupported = (): never => {
      throw new Unsupported('this');
    };
    for (const read of [() => null, unsupported, () => unsupported]) {
      const bash = await shellWith('echo', read);
      expect(await bash.exec('echo hello')).toMatchObject({ stdout: 'hello\n', exitCode: 0 });
    }
    const noTree = await shellWith('echo', () => found, false);
    expect(await noTree.exec('echo hello')).toMatchObject({ stdout: 'hello\n', exitCode: 0 });
  });

  it('says so when there is no command of its name to hand over to', async () => {
    const bash = await shellWith('probe', () => null);
    expect(await bash.exec('probe x')).toMatchObject({ stdout: '', stderr: 'probe: not available\n', exitCode: 2 });
  });
});

describe('exitStatus', () => {
  it('is 0 when found, 1 when not, 2 after an error unless -q found a line', () => {
    const cases: [found: boolean, hadError: boolean, quiet: boolean][] = [
      [true, false, false], [false, false, false], [true, false, true], [false, false, true],
      [true, true, false], [false, true, false], [true, true, true], [false, true, true],
    ];
    expect(cases.map(([found, hadError, quiet]) => exitStatus(found, hadError, quiet))).toEqual([0, 1, 0, 1, 2, 2, 0, 2]);
  });
});
