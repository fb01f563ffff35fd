// One push of a session's changes to the host it was imported from, as a pull request (GitHub) or a merge request
// (GitLab), continuing from the record an earlier push of the session left. The token is the person's, from
// Settings, and goes only to that host.
import type { FileChange, RepoName } from '../../../remote';
import type { RepoOrigin, StoredPushRecord } from '../../../store';
import type { HostSettings } from '../host-import/sources';
import { githubRecordFor, gitlabRecordFor, storedRecord } from './push-record';

/** `keepOpenText`: a request already open keeps its title and body (a push from the shell only adds a commit). */
export type PushText = { branch: string; message: string; title: string; body: string; keepOpenText?: boolean };

export type HostPush = {
  fetch: typeof fetch;
  settings: HostSettings;
  stored: StoredPushRecord | undefined;
  /** Hears each record the push makes, to keep with the session. */
  onStored: (stored: StoredPushRecord) => void;
  /** The person confirmed pushing on top of commits someone else pushed to the branch. */
  overwrite?: boolean;
  /** The fork to push into (GitHub), once the person chose to fork. */
  fork?: RepoName;
  /** Whether each file of the imported commit is an executable, as far as learned (GitHub); filled by the push. */
  executables?: Map<string, boolean>;
  signal?: AbortSignal;
};

export type PushOutcome = { number: number; url: string; opened: boolean; requests: number };

// The clients load with the first push, not with the page.
const remote = () => import('../../../remote');

/** Pushes `workspaceChanges` (paths in the workspace: for a folder import, inside that folder) and opens or updates the request; throws the host client's typed errors, written for the person. */
export async function sendToHost(origin: RepoOrigin, workspaceChanges: FileChange[], text: PushText, push: HostPush): Promise<PushOutcome> {
  const { pushToGitHub, openGitLabMergeRequest, executablesAt } = await remote();
  const changes = origin.folder ? workspaceChanges.map((change) => ({ ...change, path: `${origin.folder}/${change.path}` })) : workspaceChanges;
  switch (origin.host) {
    case 'github': {
      const token = push.settings.githubToken.trim();
      if (!token) throw new Error('Add a GitHub token in Settings (with Contents: write and Pull requests: write on the repository) to open a pull request.');
      const stored = githubRecordFor(push.stored, origin);
      const access = { fetch: push.fetch, apiUrl: push.settings.githubApiUrl, token, signal: push.signal };
      // A session that pushed into a fork before keeps pushing there.
      const fork = push.fork ?? (stored && !sameRepo(stored.target, origin) ? stored.target : undefined);
      const known = push.executables ?? new Map<string, boolean>();
      const unknown = changes.filter((change) => change.kind === 'modified' && !known.has(change.path)).map((change) => change.path);
      let record = stored;
      if (unknown.length > 0) {
        const found = await executablesAt({ ...origin, tree: stored?.baseTree }, unknown, access);
        for (const path of unknown) known.set(path, found.executables.has(path));
        // The push's first record already knows the base tree, so the push does not read the commit again.
        record ??= { target: fork ?? { owner: origin.owner, repo: origin.repo }, branch: text.branch, baseTree: found.tree, blobs: [] };
      }
      const withModes = changes.map((change) => (change.kind === 'modified' && known.get(change.path) ? { ...change, executable: true } : change));
      const result = await pushToGitHub(
        { origin: { owner: origin.owner, repo: origin.repo, ref: origin.ref, sha: origin.sha }, changes: withModes, ...text, ...(fork ? { fork } : {}) },
        { ...access, record, overwrite: push.overwrite, onRecord: (r) => push.onStored(storedRecord(origin, r)) },
      );
      return { ...result.pullRequest, requests: result.requests };
    }
    case 'gitlab': {
      const token = push.settings.gitlabToken.trim();
      if (!token) throw new Error('Add a GitLab token in Settings (with the api scope, and the Developer role on the project) to open a merge request.');
      const result = await openGitLabMergeRequest(
        { origin: { project: `${origin.owner}/${origin.repo}`, ref: origin.ref, sha: origin.sha }, changes, ...text },
        {
          fetch: push.fetch, gitlabUrl: push.settings.gitlabUrl, token, signal: push.signal, record: gitlabRecordFor(push.stored, origin),
          overwrite: push.overwrite, onRecord: (r) => push.onStored(storedRecord(origin, r)),
        },
      );
      const { iid, url, opened } = result.mergeRequest;
      return { number: iid, url, opened, requests: result.requests };
    }
  }
}

/** Forks the origin into the token owner's account (GitHub), waiting until the fork answers. */
export async function forkOrigin(origin: RepoOrigin, push: Pick<HostPush, 'fetch' | 'settings' | 'signal'> & { firstWaitMs?: number }): Promise<RepoName> {
  const { forkRepo } = await remote();
  return forkRepo({ owner: origin.owner, repo: origin.repo }, {
    fetch: push.fetch, apiUrl: push.settings.githubApiUrl, token: push.settings.githubToken.trim(), signal: push.signal, firstWaitMs: push.firstWaitMs,
  });
}

const sameRepo = (a: RepoName, b: RepoName) => a.owner.toLowerCase() === b.owner.toLowerCase() && a.repo.toLowerCase() === b.repo.toLowerCase();
