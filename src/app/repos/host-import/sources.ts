// Where a repository is fetched from, one RepoImportSource per host: each turns a parsed address into the files of
// a host import (paths as the repository has them) and what was left out. GitHub's files come through its APIs,
// GitLab's as the project's archive.zip read by the zip import.
import { importGitHubRepo, importGitLabProject, parseRepoUrl, type RepoHost, type RepoLocation, type RepoUrlResult } from '../../../remote';
import type { RepoOrigin } from '../../../store';
import type { Settings } from '../../settings/settings';

export type HostProgress = { phase: 'listing' } | { phase: 'fetching'; files: number; bytes: number; totalFiles: number; totalBytes: number };

/** Why an entry of the repository is not in the workspace. */
export type LeftOut = { path: string; reason: 'submodule' | 'lfs-pointer' | 'symlink' | 'os-metadata' | 'encrypted' | 'unsupported-compression' };

export type HostFiles = { entries: { path: string; data: Uint8Array }[]; leftOut: LeftOut[]; origin: RepoOrigin };

export interface RepoImportSource {
  readonly host: RepoHost;
  /** Whether the import sends a token (the confirm card says so). */
  readonly withToken: boolean;
  /** The files of `location`; throws the host's typed error (or ImportCancelledError), never a partial result. */
  fetch(location: RepoLocation, options: { signal?: AbortSignal; onProgress?: (progress: HostProgress) => void }): Promise<HostFiles>;
}

export type HostSettings = Pick<Settings, 'githubToken' | 'githubApiUrl' | 'githubRawUrl' | 'gitlabToken' | 'gitlabUrl'>;

/** The source for `host` with the person's settings. */
export function importSourceFor(host: RepoHost, settings: HostSettings, fetchFn: typeof fetch): RepoImportSource {
  switch (host) {
    case 'github':
      return githubSource(settings, fetchFn);
    case 'gitlab':
      return gitlabSource(settings, fetchFn);
  }
}

function gitlabSource(settings: HostSettings, fetchFn: typeof fetch): RepoImportSource {
  const token = settings.gitlabToken.trim();
  return {
    host: 'gitlab',
    withToken: token !== '',
    async fetch(location, { signal, onProgress }) {
      const imported = await importGitLabProject(location, {
        fetch: fetchFn,
        baseUrl: settings.gitlabUrl,
        ...(token ? { token } : {}),
        signal,
        onProgress: (progress) => {
          if (progress.phase === 'listing') onProgress?.(progress);
          // The archive's size is known only as it arrives (GitLab sends no length): bytes so far, no file count yet.
          else if (progress.phase === 'fetching') onProgress?.({ phase: 'fetching', files: 0, bytes: progress.bytes, totalFiles: 0, totalBytes: progress.totalBytes ?? 0 });
          else onProgress?.({ phase: 'fetching', files: progress.files, bytes: progress.bytes, totalFiles: progress.totalFiles, totalBytes: progress.totalBytes });
        },
      });
      return {
        entries: Array.from(imported.files, ([path, data]) => ({ path, data })),
        leftOut: imported.skipped.map(({ path, reason }) => ({ path, reason })).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
        origin: { ...imported.origin, web: location.origin, ...(imported.folder ? { folder: imported.folder } : {}) },
      };
    },
  };
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
        origin: { ...imported.origin, web: location.origin, ...(imported.folder ? { folder: imported.folder } : {}) },
      };
    },
  };
}

const REASONS: Record<LeftOut['reason'], string> = {
  submodule: 'a submodule, not imported (its own repository)',
  'lfs-pointer': 'a Git LFS pointer, not imported (the file itself is in LFS storage)',
  symlink: 'a symbolic link, not imported',
  'os-metadata': 'operating-system metadata, not imported',
  encrypted: 'encrypted in the archive, not imported',
  'unsupported-compression': 'compressed in a way Conch cannot read, not imported',
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
