// Where a repository is fetched from, one RepoImportSource per host: each turns a parsed address into the files of
// a host import (paths as the repository has them) and what was left out. Only GitHub is wired; a GitLab source plugs
// in beside it with the same shape.
import { importGitHubRepo, parseRepoUrl, type RepoHost, type RepoLocation, type RepoUrlResult } from '../../../remote';
import type { RepoOrigin } from '../../../store';
import type { Settings } from '../../settings/settings';

export type HostProgress = { phase: 'listing' } | { phase: 'fetching'; files: number; bytes: number; totalFiles: number; totalBytes: number };

/** Why an entry of the repository is not in the workspace. */
export type LeftOut = { path: string; reason: 'submodule' | 'lfs-pointer' | 'symlink' };

export type HostFiles = { entries: { path: string; data: Uint8Array }[]; leftOut: LeftOut[]; origin: RepoOrigin };

export interface RepoImportSource {
  readonly host: RepoHost;
  /** Whether the import sends a token (the confirm card says so). */
  readonly withToken: boolean;
  /** The files of `location`; throws the host's typed error (or ImportCancelledError), never a partial result. */
  fetch(location: RepoLocation, options: { signal?: AbortSignal; onProgress?: (progress: HostProgress) => void }): Promise<HostFiles>;
}

export type HostSettings = Pick<Settings, 'githubToken' | 'githubApiUrl' | 'githubRawUrl' | 'gitlabToken' | 'gitlabUrl'>;

/** The source for `host` with the person's settings; null when Conch cannot import from that host yet. */
export function importSourceFor(host: RepoHost, settings: HostSettings, fetchFn: typeof fetch): RepoImportSource | null {
  switch (host) {
    case 'github':
      return githubSource(settings, fetchFn);
    case 'gitlab':
      return null;
  }
}

function githubSource(settings: HostSettings, fetchFn: typeof fetch): RepoImportSource {
  const token = settings.githubToken.trim();
  return {
    host: 'github',
    withToken: token !== '',
    async fetch(location, { signal, onProgress }) {
      const imported = await importGitHubRepo(location, {
        fetch: fetchFn,
        apiUrl: settings.githubApiUrl,
        rawUrl: settings.githubRawUrl,
        ...(token ? { token } : {}),
        signal,
        onProgress,
      });
      // The workspace holds plain files only (the zip import skips links too); executable bits are not kept either.
      const links: LeftOut[] = [...imported.symlinks.keys()].map((path) => ({ path, reason: 'symlink' }));
      return {
        entries: Array.from(imported.files, ([path, data]) => ({ path, data })),
        leftOut: [...imported.skipped, ...links].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
        origin: { ...imported.origin, web: location.origin },
      };
    },
  };
}

const REASONS: Record<LeftOut['reason'], string> = {
  submodule: 'a submodule, not imported (its own repository)',
  'lfs-pointer': 'a Git LFS pointer, not imported (the file itself is in LFS storage)',
  symlink: 'a symbolic link, not imported',
};

/** One line for an entry left out of the import. */
export function leftOutLine(entry: LeftOut): string {
  return `${entry.path}: ${REASONS[entry.reason]}`;
}

/** What a host import's baseline is called: the first commit says "Imported OWNER/REPO at <sha7>". */
export function originBaselineName(origin: RepoOrigin): string {
  return `${origin.owner}/${origin.repo} at ${origin.sha.slice(0, 7)}`;
}

/** Reads a pasted address with the hosts the settings name (an Enterprise API URL, a self-managed GitLab). */
export function readRepoAddress(text: string, settings: HostSettings): RepoUrlResult {
  const githubWeb = settings.githubApiUrl.replace(/\/api\/v3\/?$/, '');
  return parseRepoUrl(text, { githubOrigins: githubWeb === settings.githubApiUrl ? [] : [githubWeb], gitlabOrigins: [settings.gitlabUrl] });
}
