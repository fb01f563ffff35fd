// Talking to the registry: abbreviated metadata (the `application/vnd.npm.install-v1+json` form npm itself asks
// for) and tarballs, each fetched once per install. Tarballs come from the cache first (keyed by integrity, and
// checked against it either way); metadata comes from the network first, from the cache when the network fails,
// so a second install works offline. Every failure is an InstallError with one clear line.

import { InstallError } from './install-error';
import { matchesIntegrity, sha512Integrity } from './integrity';
import type { PackageCache } from './environment';
import { isObject, stringMap, versionFromRegistry, type PackageVersion } from './package-version';

const METADATA_ACCEPT = 'application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8, */*';

export type Packument = { name: string; distTags: Record<string, string>; versions: Map<string, PackageVersion> };

export type TransferCounts = {
  metadataFromNetwork: number;
  metadataFromCache: number;
  tarballsFromNetwork: number;
  tarballsFromCache: number;
  bytesDownloaded: number;
};

export type RegistryClientOptions = {
  registry: string;
  cache: PackageCache;
  signal?: AbortSignal;
  /** --offline: metadata and tarballs from the cache only. */
  offline?: boolean;
};

export class RegistryClient {
  readonly counts: TransferCounts = { metadataFromNetwork: 0, metadataFromCache: 0, tarballsFromNetwork: 0, tarballsFromCache: 0, bytesDownloaded: 0 };
  private readonly packuments = new Map<string, Promise<Packument>>();

  constructor(private readonly options: RegistryClientOptions) {}

  get registry(): string {
    return this.options.registry;
  }

  /** The package's metadata; fetched once per client (later calls share the first). */
  packument(name: string): Promise<Packument> {
    let pending = this.packuments.get(name);
    if (!pending) {
      pending = this.loadPackument(name);
      pending.catch(() => undefined); // a prefetch nobody awaits must not be an unhandled rejection
      this.packuments.set(name, pending);
    }
    return pending;
  }

  /** The tarball of `pkg`, checked against its integrity; from the cache when it is there. */
  async tarball(pkg: Pick<PackageVersion, 'name' | 'version' | 'resolved' | 'integrity'>): Promise<{ bytes: Uint8Array; integrity: string }> {
    const label = `${pkg.name}@${pkg.version}`;
    if (pkg.integrity) {
      const cached = await this.cacheGet(tarballKey(pkg.integrity));
      if (cached && (await matchesIntegrity(cached, pkg.integrity))) {
        this.counts.tarballsFromCache++;
        return { bytes: cached, integrity: pkg.integrity };
      }
    }
    if (this.options.offline) {
      throw new InstallError(`${label} is not in the cache and --offline forbids the network; run npm install online once`);
    }
    const response = await this.get(pkg.resolved, `the tarball of ${label}`, {});
    const bytes = new Uint8Array(await this.read(response, `the tarball of ${label}`, pkg.resolved));
    this.counts.tarballsFromNetwork++;
    this.counts.bytesDownloaded += bytes.length;
    if (pkg.integrity && !(await matchesIntegrity(bytes, pkg.integrity))) {
      throw new InstallError(
        `EINTEGRITY: the tarball of ${label} from ${pkg.resolved} does not match its integrity ${pkg.integrity.slice(0, 24)}…: ` +
          'the download was changed or corrupted, so nothing was installed',
      );
    }
    const integrity = pkg.integrity ?? (await sha512Integrity(bytes));
    await this.cachePut(tarballKey(integrity), bytes);
    return { bytes, integrity };
  }

  private async loadPackument(name: string): Promise<Packument> {
    const url = `${this.options.registry}${escapeName(name)}`;
    const key = `packument:${url}`;
    if (this.options.offline) return this.cachedPackument(name, key, `--offline forbids the network`);
    let response: Response;
    try {
      response = await this.get(url, `the metadata of ${name}`, { accept: METADATA_ACCEPT });
    } catch (error) {
      if (!(error instanceof NetworkError)) throw error;
      return this.cachedPackument(name, key, error.message);
    }
    const bytes = new Uint8Array(await this.read(response, `the metadata of ${name}`, url));
    const packument = parsePackument(name, bytes, this.options.registry);
    this.counts.metadataFromNetwork++;
    this.counts.bytesDownloaded += bytes.length;
    await this.cachePut(key, bytes);
    return packument;
  }

  private async cachedPackument(name: string, key: string, why: string): Promise<Packument> {
    const cached = await this.cacheGet(key);
    if (!cached) throw new InstallError(`${why}, and ${name} is not in the cache from an earlier install`);
    this.counts.metadataFromCache++;
    return parsePackument(name, cached, this.options.registry);
  }

  private async get(url: string, what: string, headers: Record<string, string>): Promise<Response> {
    let response: Response;
    try {
      response = await fetch(url, { headers, signal: this.options.signal });
    } catch (error) {
      if (this.options.signal?.aborted) throw new InstallError('npm was stopped before it finished; node_modules is unchanged');
      throw new NetworkError(
        `could not reach ${origin(url)} for ${what}: the network request failed (offline, or the registry does not allow ` +
          `this page: CORS)${error instanceof Error && error.message ? ` [${error.message}]` : ''}`,
      );
    }
    if (response.status === 404) {
      throw new InstallError(`404 Not Found: ${what.replace(/^the (metadata|tarball) of /, '')} is not in the registry ${this.options.registry} (check the name)`);
    }
    if (!response.ok) throw new InstallError(`${origin(url)} answered HTTP ${response.status} for ${what}; try again later`);
    return response;
  }

  private async read(response: Response, what: string, url: string): Promise<ArrayBuffer> {
    try {
      return await response.arrayBuffer();
    } catch {
      if (this.options.signal?.aborted) throw new InstallError('npm was stopped before it finished; node_modules is unchanged');
      throw new InstallError(`the download of ${what} from ${origin(url)} broke off; try again`);
    }
  }

  private async cacheGet(key: string): Promise<Uint8Array | undefined> {
    try {
      return await this.options.cache.get(key);
    } catch {
      return undefined; // an unreadable cache is an empty one
    }
  }

  private async cachePut(key: string, data: Uint8Array): Promise<void> {
    try {
      await this.options.cache.put(key, data);
    } catch {
      // The cache is an optimisation: a full disk must not fail the install.
    }
  }
}

/** A fetch that never reached the server (offline, DNS, CORS): the one failure the metadata cache can stand in for. */
class NetworkError extends InstallError {}

/** Metadata as the registry sent it (abbreviated or full), checked. */
function parsePackument(name: string, bytes: Uint8Array, registry: string): Packument {
  let raw: unknown;
  try {
    raw = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new InstallError(`the registry ${registry} sent metadata for ${name} that is not JSON; is it an npm registry?`);
  }
  if (!isObject(raw) || !isObject(raw.versions)) {
    throw new InstallError(`the registry ${registry} sent metadata for ${name} without versions; is it an npm registry?`);
  }
  const versions = new Map<string, PackageVersion>();
  for (const [version, entry] of Object.entries(raw.versions)) {
    const parsed = versionFromRegistry(entry);
    if (parsed && parsed.version === version) versions.set(version, parsed);
  }
  return { name, distTags: stringMap(raw['dist-tags']), versions };
}

function tarballKey(integrity: string): string {
  return `tarball:${integrity}`;
}

/** The registry path of a package name: scoped names keep their `@` and escape the slash, as npm does. */
function escapeName(name: string): string {
  return name.startsWith('@') ? `@${encodeURIComponent(name.slice(1))}` : encodeURIComponent(name);
}

function origin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}
