// A repository as the mock serves it: files (with modes, symlinks and submodules) per branch and tag, turned into
// real git objects, so blob ids are what `git hash-object` prints and tree and commit ids are git's own for those
// trees (with a fixed author and date, so the same files always give the same commit).
import { createHash } from 'node:crypto';
import { gitBlobId, gitObjectId, writeIdBytes } from '../../src/runtime/object-id';
import { compareEntries } from '../../src/store/objects/trees/codec';

export type MockFileSpec =
  | { path: string; data: Uint8Array | string; executable?: boolean }
  | { path: string; symlink: string }
  | { path: string; submodule: string };

export type MockRepoSpec = {
  owner: string;
  name: string;
  private?: boolean;
  /** Default 'main'; it must be one of `branches` unless the repository is empty (no branches). */
  defaultBranch?: string;
  /** Each branch's files; a name may hold slashes (`feature/x`). */
  branches: Record<string, MockFileSpec[]>;
  tags?: Record<string, MockFileSpec[]>;
};

/** Modes as GitHub's trees API writes them (git's own tree body writes a folder as 40000). */
export type TreeMode = '100644' | '100755' | '120000' | '040000' | '160000';
export type TreeEntryType = 'blob' | 'tree' | 'commit';
export type MockTreeEntry = { name: string; mode: TreeMode; type: TreeEntryType; sha: string; size?: number };
export type MockCommit = { sha: string; treeSha: string; message: string; parents?: string[] };

export type MockRepo = {
  id: number;
  owner: string;
  name: string;
  private: boolean;
  defaultBranch: string;
  branches: Map<string, string>;
  tags: Map<string, string>;
  commits: Map<string, MockCommit>;
  trees: Map<string, MockTreeEntry[]>;
  blobs: Map<string, Uint8Array>;
};

const AUTHOR = 'Mock Octocat <octocat@example.com> 1700000000 +0000';
const encoder = new TextEncoder();

/** The git objects of `spec`; `id` is the repository's numeric id in API answers. */
export async function buildMockRepo(spec: MockRepoSpec, id: number): Promise<MockRepo> {
  const repo: MockRepo = {
    id,
    owner: spec.owner,
    name: spec.name,
    private: spec.private ?? false,
    defaultBranch: spec.defaultBranch ?? 'main',
    branches: new Map(),
    tags: new Map(),
    commits: new Map(),
    trees: new Map(),
    blobs: new Map(),
  };
  const branchNames = Object.keys(spec.branches);
  if (branchNames.length > 0 && !branchNames.includes(repo.defaultBranch)) {
    throw new Error(`mock github: ${spec.owner}/${spec.name} has no branch ${repo.defaultBranch} to be its default`);
  }
  for (const [name, files] of Object.entries(spec.branches)) repo.branches.set(name, await addCommit(repo, files, name));
  for (const [name, files] of Object.entries(spec.tags ?? {})) repo.tags.set(name, await addCommit(repo, files, name));
  return repo;
}

/** The commit a branch, a tag, a full commit id or an unambiguous prefix of at least 7 hex digits names. */
export function commitOf(repo: MockRepo, ref: string): MockCommit | undefined {
  const named = repo.branches.get(ref) ?? repo.tags.get(ref);
  if (named) return repo.commits.get(named);
  if (!/^[0-9a-f]{7,40}$/.test(ref)) return undefined;
  const matches = [...repo.commits.keys()].filter((sha) => sha.startsWith(ref));
  return matches.length === 1 ? repo.commits.get(matches[0]) : undefined;
}

/** The entry at `path` below the tree `treeSha` ('' is the tree itself, as a folder entry). */
export function entryAt(repo: MockRepo, treeSha: string, path: string): MockTreeEntry | undefined {
  let entry: MockTreeEntry = { name: '', mode: '040000', type: 'tree', sha: treeSha };
  for (const name of path.split('/').filter(Boolean)) {
    if (entry.type !== 'tree') return undefined;
    const next = repo.trees.get(entry.sha)?.find((e) => e.name === name);
    if (!next) return undefined;
    entry = next;
  }
  return entry;
}

async function addCommit(repo: MockRepo, files: MockFileSpec[], refName: string): Promise<string> {
  const root: Folder = new Map();
  for (const file of files) {
    const names = file.path.split('/');
    let folder = root;
    for (const name of names.slice(0, -1)) {
      let next = folder.get(name);
      if (!(next instanceof Map)) folder.set(name, (next = new Map()));
      folder = next;
    }
    folder.set(names[names.length - 1], file);
  }
  const treeSha = await addTree(repo, root);
  return addCommitObject(repo, treeSha, [], `Snapshot of ${refName}\n`).sha;
}

/** Stores a commit of `treeSha` with `parents`, its id git's own (fixed author and date: the same input, the same id). */
export function addCommitObject(repo: MockRepo, treeSha: string, parents: string[], message: string): MockCommit {
  const parentLines = parents.map((parent) => `parent ${parent}\n`).join('');
  const body = encoder.encode(`tree ${treeSha}\n${parentLines}author ${AUTHOR}\ncommitter ${AUTHOR}\n\n${message}`);
  const sha = createHash('sha1').update(`commit ${body.length}\0`).update(body).digest('hex');
  const commit = { sha, treeSha, message, parents };
  repo.commits.set(sha, commit);
  return commit;
}

/** Stores a tree of `entries` (names in any order) and returns its git id. */
export async function addTreeObject(repo: MockRepo, entries: MockTreeEntry[]): Promise<string> {
  const sorted = [...entries].sort((a, b) => compareEntries(kindOf(a), kindOf(b)));
  const sha = await gitObjectId('tree', treeBody(sorted));
  repo.trees.set(sha, sorted);
  return sha;
}

type Folder = Map<string, Folder | MockFileSpec>;

async function addTree(repo: MockRepo, folder: Folder): Promise<string> {
  const entries: MockTreeEntry[] = [];
  for (const [name, item] of folder) {
    if (item instanceof Map) entries.push({ name, mode: '040000', type: 'tree', sha: await addTree(repo, item) });
    else if ('submodule' in item) entries.push({ name, mode: '160000', type: 'commit', sha: item.submodule });
    else {
      const data = 'symlink' in item ? encoder.encode(item.symlink) : typeof item.data === 'string' ? encoder.encode(item.data) : item.data;
      const sha = await gitBlobId(data);
      repo.blobs.set(sha, data);
      const mode = 'symlink' in item ? '120000' : item.executable ? '100755' : '100644';
      entries.push({ name, mode, type: 'blob', sha, size: data.length });
    }
  }
  return addTreeObject(repo, entries);
}

const kindOf = (entry: MockTreeEntry) => ({ name: entry.name, kind: entry.type === 'tree' ? ('dir' as const) : ('file' as const) });

function treeBody(entries: MockTreeEntry[]): Uint8Array {
  const parts = entries.map((entry) => encoder.encode(`${entry.mode === '040000' ? '40000' : entry.mode} ${entry.name}\0`));
  const body = new Uint8Array(parts.reduce((sum, part) => sum + part.length + 20, 0));
  let at = 0;
  entries.forEach((entry, i) => {
    body.set(parts[i], at);
    writeIdBytes(entry.sha, body, at + parts[i].length);
    at += parts[i].length + 20;
  });
  return body;
}
