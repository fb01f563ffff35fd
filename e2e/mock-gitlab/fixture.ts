// A GitLab project as the mock serves it: a namespace (groups and subgroups), files per branch and tag, and a commit
// id per ref. The ids are stable (a hash of the ref's files) rather than git's own: GitLab's archive and commit
// answers only name them, and nothing in an import recomputes them.
import { createHash } from 'node:crypto';

export type MockGitLabFile = { path: string; data: Uint8Array | string; executable?: boolean } | { path: string; symlink: string };

export type MockProjectSpec = {
  /** Groups and subgroups joined by '/', e.g. 'group/sub'. */
  namespace: string;
  /** The project's path (its last URL segment). */
  name: string;
  private?: boolean;
  /** Default 'main'; null for a project whose repository is empty. */
  defaultBranch?: string | null;
  branches: Record<string, MockGitLabFile[]>;
  tags?: Record<string, MockGitLabFile[]>;
};

/** `parents`: for a commit made through the commits API (the fixture's own have none). */
export type MockCommit = { sha: string; ref: string; files: MockGitLabFile[]; parents?: string[] };

export type MockProject = {
  id: number;
  namespace: string;
  name: string;
  fullPath: string;
  private: boolean;
  defaultBranch: string | null;
  /** Branch and tag names -> commit ids. */
  refs: Map<string, string>;
  commits: Map<string, MockCommit>;
};

/** The project of `spec`; `id` is its numeric id in API answers. */
export function buildMockProject(spec: MockProjectSpec, id: number): MockProject {
  const defaultBranch = spec.defaultBranch === undefined ? 'main' : spec.defaultBranch;
  const project: MockProject = {
    id,
    namespace: spec.namespace,
    name: spec.name,
    fullPath: `${spec.namespace}/${spec.name}`,
    private: spec.private ?? false,
    defaultBranch,
    refs: new Map(),
    commits: new Map(),
  };
  if (defaultBranch !== null && !(defaultBranch in spec.branches)) {
    throw new Error(`mock gitlab: ${project.fullPath} has no branch ${defaultBranch} to be its default`);
  }
  for (const [ref, files] of [...Object.entries(spec.branches), ...Object.entries(spec.tags ?? {})]) {
    const sha = commitId(project.fullPath, ref, files);
    project.refs.set(ref, sha);
    project.commits.set(sha, { sha, ref, files });
  }
  return project;
}

/** The commit a branch, a tag, a full commit id or an unambiguous prefix of at least 7 hex digits names. */
export function commitOf(project: MockProject, ref: string): MockCommit | undefined {
  const named = project.refs.get(ref);
  if (named) return project.commits.get(named);
  if (!/^[0-9a-f]{7,40}$/.test(ref)) return undefined;
  const matches = [...project.commits.keys()].filter((sha) => sha.startsWith(ref));
  return matches.length === 1 ? project.commits.get(matches[0]) : undefined;
}

export function bytesOf(file: MockGitLabFile): Uint8Array {
  if ('symlink' in file) return new TextEncoder().encode(file.symlink);
  return typeof file.data === 'string' ? new TextEncoder().encode(file.data) : file.data;
}

function commitId(fullPath: string, ref: string, files: MockGitLabFile[]): string {
  const hash = createHash('sha1').update(`${fullPath}\0${ref}\0`);
  for (const file of files) hash.update(file.path).update('\0').update(bytesOf(file)).update('\0');
  return hash.digest('hex');
}
