// A project's archive.zip as GitLab (through `git archive`) writes it: one top folder named
// `<project>-<ref>-<sha>` (slashes in the ref as '-'; no `-<sha>` when the ref asked for is the full id), folder
// entries before their files, unix modes in the external attributes (so executables and symlinks survive), and with
// `path` only that folder, still at its full path, under a top folder with the path appended.
import { zipSync, type Zippable } from 'fflate';
import { bytesOf, type MockCommit } from './fixture';

const UNIX = 3;
const MODE_FILE = 0o100644;
const MODE_EXECUTABLE = 0o100755;
const MODE_SYMLINK = 0o120777;
const MODE_FOLDER = 0o040755;
// git archive dates every entry with the commit's time.
const COMMIT_TIME = new Date('2023-11-14T22:13:20Z');

/** The top folder GitLab names an archive of `commit` asked for as `ref`, restricted to `path` when given. */
export function archivePrefix(projectName: string, ref: string, commit: MockCommit, path: string): string {
  const base = `${projectName}-${ref.replace(/\//g, '-')}${ref === commit.sha ? '' : `-${commit.sha}`}`;
  return path ? `${base}-${path.replace(/\/+$/, '').replace(/\//g, '-')}` : base;
}

/** The zip's bytes; null when `path` holds nothing (GitLab then answers 404). */
export function archiveZip(projectName: string, ref: string, commit: MockCommit, path = ''): Uint8Array | null {
  const prefix = archivePrefix(projectName, ref, commit, path);
  const folder = path.replace(/\/+$/, '');
  const files = commit.files.filter((file) => folder === '' || file.path.startsWith(`${folder}/`));
  if (files.length === 0 && folder !== '') return null;
  const entries: Zippable = {};
  const options = (mode: number) => ({ os: UNIX, attrs: (mode << 16) >>> 0, mtime: COMMIT_TIME, level: 6 as const });
  entries[`${prefix}/`] = [new Uint8Array(0), options(MODE_FOLDER)];
  for (const file of [...files].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    const names = file.path.split('/');
    for (let i = 1; i < names.length; i++) {
      const dir = `${prefix}/${names.slice(0, i).join('/')}/`;
      entries[dir] ??= [new Uint8Array(0), options(MODE_FOLDER)];
    }
    const mode = 'symlink' in file ? MODE_SYMLINK : file.executable ? MODE_EXECUTABLE : MODE_FILE;
    entries[`${prefix}/${file.path}`] = [bytesOf(file), options(mode)];
  }
  return zipSync(entries);
}
